import type { CloudflareOptions } from "@sentry/cloudflare";
import { SENTRY_DATA_COLLECTION } from "./data-collection";
import { beforeSend, beforeSendTransaction } from "./event-filters";
import { envelopeUrl, loopbackOrigin, parseSentryIngestDsn } from "./sentry-dsn";

/** The Worker's Sentry options; undefined (reporting off) without a DSN. */
export function serverSentryOptions(env: Env): CloudflareOptions | undefined {
  if (!env.SENTRY_DSN) return undefined;
  const ingestDsn = parseSentryIngestDsn(env.SENTRY_DSN);
  const testOrigin = ingestDsn && loopbackOrigin(env.SENTRY_INGEST_TEST_ORIGIN);
  return {
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT || "production",
    release: env.CF_VERSION_METADATA?.id || undefined,
    tracesSampleRate: sampleRate(env.SENTRY_TRACES_SAMPLE_RATE),
    // Whole transactions, not streamed spans: SPEC C8 drops a 404 page's transaction, which can only be
    // decided once it has ended (streamed segments go out before their outcome is known).
    traceLifecycle: "static",
    // Tests only: the same loopback stand-in the tunnel forwards to (see loopbackOrigin).
    ...(ingestDsn && testOrigin && { tunnel: envelopeUrl(ingestDsn, testOrigin).href }),
    dataCollection: SENTRY_DATA_COLLECTION,
    beforeSend,
    beforeSendTransaction,
  };
}

type ServerErrorReporter = (error: unknown, digest: string) => void;

let reporter: ServerErrorReporter | undefined;

/** Set by workers/with-monitoring.ts when the Sentry SDK is loaded (only with a DSN). */
export function setServerErrorReporter(next: ServerErrorReporter): void {
  reporter = next;
}

/** Reports a server error tagged with its digest; a no-op when reporting is off. */
export function reportServerError(error: unknown, digest: string): void {
  reporter?.(error, digest);
}

export function sampleRate(value: string | undefined): number {
  const rate = Number(value);
  return Number.isFinite(rate) && rate >= 0 && rate <= 1 ? rate : 0;
}
