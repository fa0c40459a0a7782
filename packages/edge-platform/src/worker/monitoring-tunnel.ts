import type { PlatformConfig } from "../config.server";
import { MONITORING_TUNNEL_MAX_ANSWER_BYTES, REQUEST_BODY_TIMEOUT_MS } from "../constants";
import { allowHeader, retryAfterHeader } from "../headers";
import { hasRepeatedKey } from "../http/json-keys";
import { readLimited, readLimitedBody } from "../http/read-limited-body";
import { envelopeUrl, isSameDsn, isSameTunnelQuery, type SentryIngestDsn } from "../reporting/sentry-dsn";

export type TunnelSettings = {
  dsn: SentryIngestDsn;
  /** Test-only ingest stand-in (loopback); undefined means Sentry's ingest host. */
  ingestOrigin: string | undefined;
  maxBytes: number;
  timeoutMs: number;
};

/** The tunnel is on only for a Sentry SaaS ingest DSN (packages/edge-platform/docs/contract.md C7); otherwise /monitoring does not exist. */
export function tunnelSettings({ reporting }: PlatformConfig): TunnelSettings | undefined {
  if (!reporting?.ingest) return undefined;
  return { dsn: reporting.ingest, ingestOrigin: reporting.ingestTestOrigin, ...reporting.tunnel };
}

/** Only what the SDK needs from Sentry's answer: its status, rate limits and retry time. */
const RESPONSE_HEADERS_KEPT = ["retry-after", "x-sentry-rate-limits"];

/**
 * Counts the envelope against its client's limit: the seconds to wait when the client is over it,
 * undefined when the envelope may go on (limits/rate-limit.ts clientOverLimit).
 */
export type EnvelopeLimit = () => Promise<number | undefined>;

/**
 * Forwards one browser envelope to Sentry, and nothing else: the query must name the configured org and
 * project, the client must be within its limit (counted before the body is read, so a refused client costs
 * a counter and no more), the envelope's own DSN must be the configured DSN, and the destination comes from
 * that DSN.
 */
export async function forwardEnvelope(
  request: Request,
  settings: TunnelSettings,
  overLimit: EnvelopeLimit,
): Promise<Response> {
  if (request.method !== "POST")
    return plain(405, "Method Not Allowed: POST envelopes here.", [allowHeader("POST")]);
  if (!isSameTunnelQuery(new URL(request.url).searchParams, settings.dsn)) {
    return plain(403, "Forbidden: not this application's Sentry project.");
  }
  const retryAfter = await overLimit();
  if (retryAfter !== undefined) {
    // The SDK reads Retry-After on a 429 and sends nothing more until then.
    return plain(
      429,
      `Too Many Requests: too many reports from this client; send again in ${retryAfter} seconds.`,
      [retryAfterHeader(retryAfter)],
    );
  }

  const read = await readLimitedBody(request, {
    maxBytes: settings.maxBytes,
    timeoutMs: REQUEST_BODY_TIMEOUT_MS,
  });
  if (!read.ok) return plain(read.status, read.message);
  const { body } = read;
  const header = parseEnvelopeHeader(body);
  if (!header) return plain(400, "Bad Request: the envelope header is not a JSON object with unique keys.");
  if (!isSameDsn(header.dsn, settings.dsn)) return plain(403, "Forbidden: the envelope is not for this DSN.");

  const headers = new Headers({
    "Content-Type": request.headers.get("Content-Type") ?? "application/x-sentry-envelope",
  });
  // No client IP (no X-Forwarded-For): Sentry would store it with the browser's reports
  // (packages/edge-platform/src/reporting/report-privacy.ts). Sentry then sees the Worker, not the visitor.

  // One deadline for the whole exchange: connecting, the first byte and the last.
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const upstream = await fetch(envelopeUrl(settings.dsn, settings.ingestOrigin), {
      method: "POST",
      body,
      headers,
      signal,
      // The envelope goes to the DSN's host and nowhere else, whatever Sentry's side answers.
      redirect: "manual",
    });
    if (upstream.status >= 300 && upstream.status < 400) {
      void upstream.body?.cancel().catch(() => {});
      return plain(502, "Bad Gateway: Sentry answered with a redirect, which the tunnel does not follow.");
    }
    // Sentry's answer costs at most that much memory, however large or endless; the rest is cancelled unread.
    const answer = await readLimited(upstream.body, upstream.headers.get("Content-Length"), {
      maxBytes: MONITORING_TUNNEL_MAX_ANSWER_BYTES,
      signal,
    });
    if (!answer.ok && answer.failure === "aborted")
      return plain(504, "Gateway Timeout: Sentry did not answer in time.");
    if (!answer.ok && answer.failure === "unreadable")
      return plain(502, "Bad Gateway: Sentry's answer could not be read to its end.");
    if (!answer.ok) {
      return plain(
        502,
        `Bad Gateway: Sentry's answer exceeds ${MONITORING_TUNNEL_MAX_ANSWER_BYTES} bytes, which the tunnel does not read.`,
      );
    }
    const kept = new Headers({ "Content-Type": inertContentType(upstream.headers.get("Content-Type")) });
    for (const name of RESPONSE_HEADERS_KEPT) {
      const value = upstream.headers.get(name);
      if (value !== null) kept.set(name, value);
    }
    // A 204 (or any empty answer) must have no body at all: Response refuses one for null-body statuses.
    return new Response(answer.body.byteLength > 0 ? answer.body : null, {
      status: upstream.status,
      headers: kept,
    });
  } catch (error) {
    if (signal.aborted) return plain(504, "Gateway Timeout: Sentry did not answer in time.");
    return plain(
      502,
      `Bad Gateway: Sentry could not be reached (${error instanceof Error ? error.name : "error"}).`,
    );
  }
}

/**
 * What the browser is told the answer is: JSON stays JSON for the SDK; anything else, HTML with
 * a script included, becomes text, so nothing Sentry's side sends can render as a document on this origin.
 */
export function inertContentType(upstream: string | null): string {
  const essence = upstream?.split(";")[0]?.trim().toLowerCase();
  return essence === "application/json" ? "application/json" : "text/plain; charset=utf-8";
}

/**
 * The envelope's first line, parsed: a JSON object (SDKs put `dsn`, `event_id`, `sent_at` there).
 * Undefined when it is not valid UTF-8 JSON of an object (a byte-order mark before it included), or when an object in it repeats a key: the DSN
 * checked here would be the last `dsn`, and Sentry's parser might read the first (http/json-keys.ts).
 */
export function parseEnvelopeHeader(body: Uint8Array): Record<string, unknown> | undefined {
  const end = body.indexOf(0x0a);
  try {
    // A byte-order mark is kept (ignoreBOM), so JSON.parse refuses it: decoded, it would vanish here while the
    // bytes forwarded still start with it, and Sentry's parser reads the line as it is sent.
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      end === -1 ? body : body.subarray(0, end),
    );
    const header: unknown = JSON.parse(text);
    return typeof header === "object" && header !== null && !Array.isArray(header) && !hasRepeatedKey(text)
      ? (header as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function plain(status: number, message: string, headers: [string, string][] = []): Response {
  return new Response(message, {
    status,
    headers: [["Content-Type", "text/plain; charset=utf-8"], ...headers],
  });
}
