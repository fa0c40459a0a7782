import {
  captureEvent,
  getActiveSpan,
  getClient,
  spanToBaggageHeader,
  spanToTraceHeader,
  startSpan,
  updateSpanName,
  withSentry,
} from "@sentry/cloudflare";
import { type PlatformConfig, platformConfig } from "../config.server";
import type {
  ServerErrorReport as ErrorFacts,
  RequestReporting,
  ServerErrorReporter,
} from "../errors/request-errors";
import { routeName, transactionName } from "../monitoring/route-name";
import type { RouteTracer } from "../monitoring/route-tracer";
import { SEGMENT_NAME_SOURCE } from "../monitoring/sentry-attributes";
import {
  isTracedRequest,
  serverSentryOptions,
  untracedTraceHeader,
} from "../monitoring/server-sentry.server";
import { isOwnPagesTrace } from "../monitoring/trace-propagation";

type IncomingRequest = Request<unknown, IncomingRequestCfProperties>;
type FetchHandler = (request: IncomingRequest, env: Env, ctx: ExecutionContext) => Promise<Response>;
type ServerErrorReport = ErrorFacts & { error: unknown };
type Span = NonNullable<ReturnType<typeof getActiveSpan>>;
/** The app as packages/edge-platform/src/worker/app.ts hands it over: it takes how its request is reported. */
type ReportingApp = {
  fetch(
    request: Request,
    env: Env,
    ctx: ExecutionContext,
    config: PlatformConfig,
    reporting: RequestReporting,
  ): Promise<Response>;
};

/**
 * The app with error reporting. Imported only when a DSN is configured: merely loading the SDK costs a large
 * share of the Worker's throughput on dynamic pages, so without a DSN it never loads.
 *
 * The SDK's request wrapper (scopes, trace continuation, a span, instrumented env and ctx, a flush) costs a
 * large share of a dynamic page's CPU even when the request is not sampled. So the sampling decision comes
 * first: a traced request runs inside the wrapper; any other request runs the plain app. Both costs are in
 * packages/edge-platform/docs/PERFORMANCE.md, "Reporting's cost".
 *
 * Every server error, traced request or not, is reported by a report-only run of the SDK that the request
 * schedules with `waitUntil` (packages/edge-platform/docs/decisions/014-reporting-per-request.md): errors also happen after the
 * Response exists (streamed data, Suspense boundaries, `waitUntil` work), when a traced request's scope has
 * been flushed and an untraced one has no scope at all. The run carries the request's URL, method, headers
 * and trace, so the event still links to the request's trace.
 */
export function withMonitoring(app: ReportingApp): {
  fetch(request: IncomingRequest, env: Env, ctx: ExecutionContext, config: PlatformConfig): Promise<Response>;
} {
  // The configuration a traced request's app gets, by request. The SDK hands the traced handler a Proxy of
  // `env` made for that request (it instruments the bindings), which platformConfig's per-isolate memo,
  // keyed by the env object, has never seen: every traced request parsed the whole configuration again
  // (bench:profile -- /items/ams.data --dsn; packages/edge-platform/docs/PERFORMANCE.md, "Reporting's cost").
  const configs = new WeakMap<IncomingRequest, PlatformConfig>();
  // What a report-only run is to capture, by its stand-in request (a fresh object per report: never shared).
  const reports = new WeakMap<IncomingRequest, ServerErrorReport>();
  const reportOnly: { fetch: FetchHandler } = withSentry(serverSentryOptions, {
    async fetch(request: IncomingRequest) {
      const report = reports.get(request);
      if (report) await captureServerError(report);
      return new Response(null, { status: 204 });
    },
  });

  /** The reporter a request carries; `traceHeader` is called once, on its first error. */
  function reporterFor(
    request: IncomingRequest,
    env: Env,
    ctx: ExecutionContext,
    traceHeader: () => string,
  ): ServerErrorReporter {
    let sentryTrace: string | undefined;
    return (error, facts) => {
      sentryTrace ??= traceHeader();
      // The body is not reported (data collection), and the sampled flag 0 keeps this run from starting
      // a transaction of its own.
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      headers.set("sentry-trace", sentryTrace);
      // A request made here has no `cf` properties; the SDK reads them only when present.
      const standIn = new Request(request.url, { method: request.method, headers }) as IncomingRequest;
      reports.set(standIn, { error, ...facts });
      ctx.waitUntil(reportOnly.fetch(standIn, env, ctx));
    };
  }

  // withSentry instruments the handler object it is given in place: each gets an object of its own.
  const traced = withSentry(serverSentryOptions, {
    fetch(request: IncomingRequest, env: Env, ctx: ExecutionContext) {
      // Taken now, inside the request's span: the report joins this trace under it.
      const span = getActiveSpan();
      const header = span ? spanToTraceHeader(span) : null;
      return app.fetch(request, env, ctx, configs.get(request) ?? platformConfig(env), {
        report: reporterFor(request, env, ctx, () => untracedTraceHeader(header)),
        tracer: span && sentryTracer(span),
      });
    },
  });

  return {
    async fetch(incoming, env, ctx, config) {
      const request = ownPagesTraceOnly(incoming);
      const sentryTrace = request.headers.get("sentry-trace");
      const rate = config.monitoring?.tracesSampleRate ?? 0;
      if (isTracedRequest(sentryTrace, rate)) {
        configs.set(request, config);
        return traced.fetch(request, env, ctx);
      }
      return app.fetch(request, env, ctx, config, {
        report: reporterFor(request, env, ctx, () => untracedTraceHeader(sentryTrace)),
        tracer: undefined,
      });
    },
  };
}

/** The route spans and the transaction name of a traced request, in Sentry's terms (route-tracing.server.ts). */
function sentryTracer(requestSpan: Span): RouteTracer {
  let named = false;
  return {
    // The first handler names it: after an action, React Router runs the loaders with a GET of their own.
    nameTransaction(name) {
      if (named) return;
      named = true;
      updateSpanName(requestSpan, name);
      requestSpan.setAttribute(SEGMENT_NAME_SOURCE, "route");
    },
    async span({ name, op, attributes }, run) {
      await startSpan({ name, op, attributes }, async (span) => {
        const { status } = await run();
        if (status === "error") span.setStatus({ code: 2, message: "internal_error" });
      });
    },
    traceHeaders() {
      return { sentryTrace: spanToTraceHeader(requestSpan), baggage: spanToBaggageHeader(requestSpan) ?? "" };
    },
  };
}

/**
 * The request as the SDK may see it: a trace from anywhere but the app's own pages (isOwnPagesTrace) is taken
 * off, so that it neither forces tracing nor joins the Worker's spans to a trace someone else chose.
 */
function ownPagesTraceOnly(request: IncomingRequest): IncomingRequest {
  const { headers } = request;
  if (!(headers.has("sentry-trace") || headers.has("baggage") || headers.has("traceparent"))) return request;
  if (isOwnPagesTrace(headers)) return request;
  const cleaned = new Headers(headers);
  for (const name of ["sentry-trace", "baggage", "traceparent"]) cleaned.delete(name);
  return new Request(request, { headers: cleaned }) as IncomingRequest;
}

/**
 * Captures one request's error. Not `captureException`: the SDK marks a captured object and drops it when it
 * is captured again, so a shared error object (a cached rejected promise) would be reported for the first
 * request it breaks and never again. Each request records it once (server-error.server.ts); each such
 * record is an event.
 */
async function captureServerError({ error, digest, method, route }: ServerErrorReport): Promise<void> {
  const client = getClient();
  if (!client) return;
  const event = await client.eventFromException(error);
  // Uncaught by the product's code: the platform turned it into the error page. The SDK takes the mechanism
  // only from its own instrumentation, so it is set on the event's exception here.
  const exception = event.exception?.values?.at(-1);
  if (exception) exception.mechanism = { type: "auto.http.cloudflare", handled: false };
  captureEvent({
    ...event,
    level: "error",
    // Grouped and searchable like the request's transaction: by route pattern, never by URL.
    ...(route && { transaction: transactionName(method, route) }),
    tags: { ...event.tags, digest, ...(route && { route: routeName(route) }) },
  });
}
