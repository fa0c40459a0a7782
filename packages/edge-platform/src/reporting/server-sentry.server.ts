import type { CloudflareOptions } from "@sentry/cloudflare";
import { platformConfig } from "../config.server";
import type { WorkerEnv } from "../platform-env";
import { SENTRY_DATA_COLLECTION } from "./data-collection";
import { beforeBreadcrumb, beforeSend, beforeSendTransaction } from "./event-filters";
import { envelopeUrl } from "./sentry-dsn";
import { tracePropagationTargets } from "./trace-propagation";

/** The Worker's Sentry options; undefined (reporting off) without a DSN. */
export function serverSentryOptions(env: WorkerEnv): CloudflareOptions | undefined {
  const reporting = platformConfig(env).reporting;
  if (!reporting) return undefined;
  const { ingest, ingestTestOrigin } = reporting;
  return {
    dsn: reporting.dsn,
    environment: reporting.environment,
    release: reporting.release,
    // The Worker decides which requests are traced before the SDK runs (isTracedRequest): the SDK follows
    // that decision, carried by the sentry-trace flag, instead of sampling a second time.
    tracesSampler: ({ parentSampled }) => (parentSampled === false ? 0 : 1),
    // Whole transactions, not streamed spans: packages/edge-platform/docs/contract.md C8 drops a 404 page's transaction, which can only be
    // decided once it has ended (streamed segments go out before their outcome is known).
    traceLifecycle: "static",
    // Only to the origins the configuration names: a Worker's subrequest to its own hostname leaves the
    // Worker, so "own origin" has no meaning here, and every other origin is a third party.
    tracePropagationTargets: tracePropagationTargets(reporting.tracePropagationOrigins),
    // Tests only: the same loopback stand-in the tunnel forwards to (see loopbackOrigin).
    ...(ingest && ingestTestOrigin && { tunnel: envelopeUrl(ingest, ingestTestOrigin).href }),
    // Dedupe drops an event equal to the one before it: the same failure in two requests is two reports
    // (packages/edge-platform/docs/decisions/014-reporting-per-request.md); each request already reports an error once
    // (server-error.server.ts).
    integrations: (defaults) => defaults.filter((integration) => integration.name !== "Dedupe"),
    dataCollection: SENTRY_DATA_COLLECTION,
    beforeSend,
    beforeSendTransaction,
    beforeBreadcrumb,
  };
}

/**
 * Whether the Worker traces a request: the decision of the browser's trace when it sent one (the
 * `sentry-trace` header's sampled flag), otherwise a draw at the configured rate.
 */
export function isTracedRequest(sentryTrace: string | null, rate: number, random = Math.random()): boolean {
  const flag = SENTRY_TRACE.exec(sentryTrace ?? "")?.[3];
  return flag === undefined ? random < rate : flag === "1";
}

/**
 * The `sentry-trace` header of a request that is not traced: the incoming trace kept when there is one,
 * its sampled flag set to 0.
 */
export function untracedTraceHeader(sentryTrace: string | null): string {
  const [, traceId, spanId] = SENTRY_TRACE.exec(sentryTrace ?? "") ?? [];
  const random = () => crypto.randomUUID().replaceAll("-", "");
  return `${traceId ?? random()}-${spanId ?? random().slice(0, 16)}-0`;
}

const SENTRY_TRACE = /^([0-9a-f]{32})-([0-9a-f]{16})(?:-([01]))?$/;
