import type { PlatformConfig } from "../app/platform/config.server";
import { MONITORING_TUNNEL_MAX_ANSWER_BYTES, REQUEST_BODY_TIMEOUT_MS } from "../app/platform/constants";
import { readLimitedBody } from "../app/platform/http/read-limited-body";
import {
  envelopeUrl,
  isSameDsn,
  isSameTunnelQuery,
  type SentryIngestDsn,
} from "../app/platform/monitoring/sentry-dsn";

export type TunnelSettings = {
  dsn: SentryIngestDsn;
  /** Test-only ingest stand-in (loopback); undefined means Sentry's ingest host. */
  ingestOrigin: string | undefined;
  maxBytes: number;
  timeoutMs: number;
};

/** The tunnel is on only for a Sentry SaaS ingest DSN (docs/contract.md C7); otherwise /monitoring does not exist. */
export function tunnelSettings({ monitoring }: PlatformConfig): TunnelSettings | undefined {
  if (!monitoring?.ingest) return undefined;
  return { dsn: monitoring.ingest, ingestOrigin: monitoring.ingestTestOrigin, ...monitoring.tunnel };
}

/** Only what the SDK needs from Sentry's answer: its status, rate limits and retry time. */
const RESPONSE_HEADERS_KEPT = ["retry-after", "x-sentry-rate-limits"];

/**
 * Forwards one browser envelope to Sentry, and nothing else: the query must name the configured org and
 * project, the envelope's own DSN must be the configured DSN, and the destination comes from that DSN.
 */
export async function forwardEnvelope(request: Request, settings: TunnelSettings): Promise<Response> {
  if (request.method !== "POST")
    return plain(405, "Method Not Allowed: POST envelopes here.", { Allow: "POST" });
  if (!isSameTunnelQuery(new URL(request.url).searchParams, settings.dsn)) {
    return plain(403, "Forbidden: not this application's Sentry project.");
  }

  const read = await readLimitedBody(request, {
    maxBytes: settings.maxBytes,
    timeoutMs: REQUEST_BODY_TIMEOUT_MS,
  });
  if (!read.ok) return plain(read.status, read.message);
  const { body } = read;
  const header = parseEnvelopeHeader(body);
  if (!header) return plain(400, "Bad Request: the envelope header is not a JSON object.");
  if (!isSameDsn(header.dsn, settings.dsn)) return plain(403, "Forbidden: the envelope is not for this DSN.");

  const headers = new Headers({
    "Content-Type": request.headers.get("Content-Type") ?? "application/x-sentry-envelope",
  });
  // No client IP (no X-Forwarded-For): Sentry would store it with the browser's reports
  // (app/platform/monitoring/report-privacy.ts). Sentry then sees the Worker, not the visitor.

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
    const answer = await readAnswer(upstream, MONITORING_TUNNEL_MAX_ANSWER_BYTES, signal);
    if (answer === "too large") {
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
    return new Response(answer.byteLength > 0 ? answer : null, { status: upstream.status, headers: kept });
  } catch (error) {
    if (signal.aborted) return plain(504, "Gateway Timeout: Sentry did not answer in time.");
    return plain(
      502,
      `Bad Gateway: Sentry could not be reached (${error instanceof Error ? error.name : "error"}).`,
    );
  }
}

/**
 * Sentry's answer, read to at most `maxBytes`: a huge or endless answer costs that much memory
 * and no more; the rest is cancelled unread. Rejects when `signal` aborts, however slowly bytes drip in.
 */
async function readAnswer(
  upstream: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | "too large"> {
  if (!upstream.body) return new Uint8Array();
  const reader = upstream.body.getReader();
  if (Number(upstream.headers.get("Content-Length")) > maxBytes) {
    void reader.cancel().catch(() => {});
    return "too large";
  }
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  // The read that loses the race to the deadline must not become an unhandled rejection.
  aborted.catch(() => {});
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), aborted]);
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) return "too large";
      chunks.push(next.value);
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  const answer = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    answer.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return answer;
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
 * Undefined when it is not valid UTF-8 JSON of an object.
 */
export function parseEnvelopeHeader(body: Uint8Array): Record<string, unknown> | undefined {
  const end = body.indexOf(0x0a);
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(end === -1 ? body : body.subarray(0, end));
    const header: unknown = JSON.parse(text);
    return typeof header === "object" && header !== null && !Array.isArray(header)
      ? (header as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", ...headers },
  });
}
