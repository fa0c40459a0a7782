import { isLoopbackHostname } from "../http/loopback.ts";

/**
 * A DSN of Sentry's SaaS ingest (packages/edge-platform/docs/contract.md C7): `https://<key>@o<org>.ingest[.<region>].sentry.io/<project>`.
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
const INGEST_PROJECT_PATH = /^\/(\d{1,20})\/?$/;
/** A self-hosted Sentry may sit under a path prefix; the project id is the last segment. */
const PROJECT_PATH = /^(\/[^/?#]+)*\/\d{1,20}\/?$/;
const PUBLIC_KEY = /^[0-9A-Za-z]{1,64}$/;
const DSN_FORM = "https://<public key>@<host>/<project id>";

/**
 * A DSN, classified: Sentry's SaaS ingest (`ingest`: the browser reports through the tunnel) or a
 * self-hosted Sentry (`directOrigin`: the browser reports to it directly).
 */
export type ParsedDsn = {
  dsn: string;
  ingest: SentryIngestDsn | undefined;
  directOrigin: string | undefined;
};

/**
 * The one DSN parser (configuration, the tunnel's envelope check): a parsed DSN, or why the value is not
 * one, worded to follow the variable's name in an error message.
 */
export function parseDsn(value: string): ParsedDsn | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not a URL (expected ${DSN_FORM})`;
  }
  // A secret key (legacy `key:secret@`) must never sit in a browser-visible DSN.
  if (url.password) return "must not contain a secret key (use the public DSN)";
  if (!PUBLIC_KEY.test(url.username)) return `has no public key (expected ${DSN_FORM})`;
  if (url.search || url.hash) return `must end with a numeric project id (expected ${DSN_FORM})`;
  if (url.hostname === "sentry.io" || url.hostname.endsWith(".sentry.io")) {
    const host = INGEST_HOST.exec(url.hostname);
    const project = INGEST_PROJECT_PATH.exec(url.pathname);
    if (url.protocol !== "https:" || url.port || !host?.[1] || !project?.[1]) {
      return "names sentry.io but is not an ingest DSN (copy it from the project's Client Keys page)";
    }
    const ingest = { publicKey: url.username, orgId: host[1], projectId: project[1], region: host[2] };
    return { dsn: value, ingest, directOrigin: undefined };
  }
  // A self-hosted Sentry over https; plain http only on loopback (local development and tests).
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHostname(url.hostname))) {
    return "must use https (plain http only for a loopback host)";
  }
  if (!PROJECT_PATH.test(url.pathname)) return `must end with a numeric project id (expected ${DSN_FORM})`;
  return { dsn: value, ingest: undefined, directOrigin: url.origin };
}

/** The SaaS ingest DSN a value names, if it is one (see parseDsn). */
export function parseSentryIngestDsn(dsn: string | null | undefined): SentryIngestDsn | undefined {
  const parsed = dsn ? parseDsn(dsn) : undefined;
  return typeof parsed === "object" ? parsed.ingest : undefined;
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
