import { isLoopbackHostname } from "../http/loopback.ts";

/**
 * A DSN of Sentry's SaaS ingest (docs/contract.md C7): `https://<key>@o<org>.ingest[.<region>].sentry.io/<project>`.
 * Only such a DSN turns the /monitoring tunnel on; self-hosted DSNs are reported to directly.
 */
export type SentryIngestDsn = {
  publicKey: string;
  orgId: string;
  projectId: string;
  /** e.g. "us" or "de" for regional ingest; undefined for the global one. */
  region: string | undefined;
};

const INGEST_HOST = /^o(\d{1,20})\.ingest(?:\.([a-z][a-z0-9-]{0,30}))?\.sentry\.io$/;
const PROJECT_PATH = /^\/(\d{1,20})\/?$/;
const PUBLIC_KEY = /^[0-9A-Za-z]{1,64}$/;

export function parseSentryIngestDsn(dsn: string | null | undefined): SentryIngestDsn | undefined {
  if (!dsn) return undefined;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return undefined;
  }
  // A secret key (legacy `key:secret@`) must never sit in a browser-visible DSN.
  if (url.protocol !== "https:" || url.port || url.password || url.search || url.hash) return undefined;
  const host = INGEST_HOST.exec(url.hostname);
  const project = PROJECT_PATH.exec(url.pathname);
  if (!host?.[1] || !project?.[1] || !PUBLIC_KEY.test(url.username)) return undefined;
  return { publicKey: url.username, orgId: host[1], projectId: project[1], region: host[2] };
}

function ingestHost(dsn: SentryIngestDsn): string {
  return `o${dsn.orgId}.ingest${dsn.region ? `.${dsn.region}` : ""}.sentry.io`;
}

/** The DSN written the way Sentry's SDKs write it into envelope headers, for exact comparison. */
export function canonicalDsn(dsn: SentryIngestDsn): string {
  return `https://${dsn.publicKey}@${ingestHost(dsn)}/${dsn.projectId}`;
}

/** Whether an envelope header's DSN is the configured one. */
export function isSameDsn(candidate: unknown, configured: SentryIngestDsn): boolean {
  if (typeof candidate !== "string") return false;
  const parsed = parseSentryIngestDsn(candidate);
  return parsed !== undefined && canonicalDsn(parsed) === canonicalDsn(configured);
}

/** The query the browser SDK adds to the tunnel path (the form @sentry/nextjs uses). */
export function tunnelQuery(dsn: SentryIngestDsn): string {
  const query = new URLSearchParams({ o: dsn.orgId, p: dsn.projectId });
  if (dsn.region) query.set("r", dsn.region);
  return query.toString();
}

/** Whether a tunnel request's o/p/r parameters name exactly the configured DSN's org, project and region. */
export function isSameTunnelQuery(params: URLSearchParams, dsn: SentryIngestDsn): boolean {
  const single = (name: string) => {
    const values = params.getAll(name);
    return values.length === 1 ? values[0] : values.length === 0 ? undefined : null;
  };
  return single("o") === dsn.orgId && single("p") === dsn.projectId && single("r") === dsn.region;
}

/**
 * Where envelopes for this DSN go: always built from the configured DSN, never from a request.
 * `ingestOrigin` replaces Sentry's host for tests only (see `loopbackOrigin`).
 */
export function envelopeUrl(dsn: SentryIngestDsn, ingestOrigin?: string): URL {
  const origin = ingestOrigin ?? `https://${ingestHost(dsn)}`;
  return new URL(`${origin}/api/${dsn.projectId}/envelope/?hsts=0`);
}

/**
 * The test-only ingest stand-in: accepted only as a plain-HTTP loopback origin. A deployed Worker cannot
 * reach loopback, so even a deployment that set it could only send envelopes nowhere.
 */
export function loopbackOrigin(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (
    url.protocol !== "http:" ||
    !isLoopbackHostname(url.hostname) ||
    url.pathname !== "/" ||
    url.search ||
    url.username
  )
    return undefined;
  return url.origin;
}
