import { AsyncLocalStorage } from "node:async_hooks";
import { captureException, withSentry } from "@sentry/cloudflare";
import { platformConfig } from "../app/platform/config.server";
import {
  isTracedRequest,
  serverSentryOptions,
  setServerErrorReporter,
  untracedTraceHeader,
} from "../app/platform/monitoring/server-sentry.server";

type IncomingRequest = Request<unknown, IncomingRequestCfProperties>;
type FetchHandler = (request: IncomingRequest, env: Env, ctx: ExecutionContext) => Promise<Response>;
type PendingReport = { error: unknown; digest: string };

/** The server errors of a request that is not traced, held until its response is out. */
const untracedErrors = new AsyncLocalStorage<PendingReport[]>();
/** What a report-only run of the SDK is to capture, by its stand-in request. */
const reportsFor = new WeakMap<IncomingRequest, PendingReport[]>();

/**
 * The app with error reporting. Imported only when a DSN is configured: merely loading the SDK costs about a
 * fifth of the Worker's throughput on dynamic pages, so without a DSN it never loads.
 *
 * The SDK's request wrapper (scopes, trace continuation, a span, instrumented env and ctx, a flush) costs
 * about 18% of a dynamic page's CPU even when the request is not sampled (docs/PERFORMANCE.md).
 * So the sampling decision comes first: a traced request runs inside the wrapper; any other request runs
 * the plain app, and only if it recorded a server error does the SDK run, after the response, to capture
 * that error with the request's URL, method and headers and the same digest tag.
 */
export function withMonitoring(app: { fetch: FetchHandler }): { fetch: FetchHandler } {
  setServerErrorReporter((error, digest) => {
    const pending = untracedErrors.getStore();
    if (pending) pending.push({ error, digest });
    else captureException(error, { tags: { digest }, level: "error" });
  });
  // withSentry instruments the handler object it is given in place: each gets an object of its own.
  const traced = withSentry(serverSentryOptions, { fetch: app.fetch });
  const reportOnly: { fetch: FetchHandler } = withSentry(serverSentryOptions, {
    async fetch(request: IncomingRequest) {
      for (const { error, digest } of reportsFor.get(request) ?? [])
        captureException(error, { tags: { digest }, level: "error" });
      return new Response(null, { status: 204 });
    },
  });

  return {
    async fetch(request, env, ctx) {
      const sentryTrace = request.headers.get("sentry-trace");
      const rate = platformConfig(env).monitoring?.tracesSampleRate ?? 0;
      if (isTracedRequest(sentryTrace, rate)) {
        return traced.fetch(request, env, ctx);
      }
      const pending: PendingReport[] = [];
      try {
        return await untracedErrors.run(pending, () => app.fetch(request, env, ctx));
      } finally {
        if (pending.length > 0) {
          // The body is not reported (data collection), and the sampled flag 0 keeps this run from starting
          // a transaction of its own.
          const headers = new Headers(request.headers);
          headers.delete("content-length");
          headers.set("sentry-trace", untracedTraceHeader(sentryTrace));
          // A request made here has no `cf` properties; the SDK reads them only when present.
          const standIn = new Request(request.url, { method: request.method, headers }) as IncomingRequest;
          reportsFor.set(standIn, pending);
          ctx.waitUntil(reportOnly.fetch(standIn, env, ctx));
        }
      }
    },
  };
}
