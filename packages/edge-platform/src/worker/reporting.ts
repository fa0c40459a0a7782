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
import type { ServerErrorReport as ErrorFacts, ServerErrorReporter } from "../errors/request-errors";
import type { WorkerEnv } from "../platform-env";
import { routeName, transactionName } from "../reporting/route-name";
import type { RouteTracer } from "../reporting/route-tracer";
import { SEGMENT_NAME_SOURCE } from "../reporting/sentry-attributes";
import { isTracedRequest, serverSentryOptions, untracedTraceHeader } from "../reporting/server-sentry.server";
import { isOwnPagesTrace } from "../reporting/trace-propagation";
import type { Next, StepContext } from "./steps";

type IncomingRequest = Request<unknown, IncomingRequestCfProperties>;
type FetchHandler = (request: IncomingRequest, env: WorkerEnv, ctx: ExecutionContext) => Promise<Response>;
type ServerErrorReport = ErrorFacts & { error: unknown };
type Span = NonNullable<ReturnType<typeof getActiveSpan>>;

/*
 * The Worker's reporting step (packages/edge-platform/src/worker/app.ts), imported only when a DSN is
 * configured: merely loading the SDK costs a share of the Worker's throughput on dynamic pages, so without a
 * DSN it never loads.
 *
 * The SDK's request wrapper (scopes, trace continuation, a span, instrumented env and ctx, a flush) costs CPU
 * even when the request is not sampled (docs/PERFORMANCE.md, "Reporting's cost"). So the sampling decision
 * comes first: a traced request runs inside the wrapper; any other request goes on as it is.
 *
 * Every server error, traced request or not, is reported by a report-only run of the SDK that the request
 * schedules with `waitUntil` (docs/decisions/014-reporting-per-request.md): errors also happen after the
 * Response exists (streamed data, Suspense boundaries, `waitUntil` work), when a traced request's scope has
 * been flushed and an untraced one has no scope at all. The run carries the request's URL, method, headers
 * and trace, so the event still links to the request's trace.
 */

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
  env: WorkerEnv,
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

// A traced request's way on through the SDK's wrapper, which calls its handler with the same request object
// and its own instrumented `env` and `ctx` (the bindings get spans).
const tracedRequests = new WeakMap<IncomingRequest, { context: StepContext; next: Next }>();
const traced: { fetch: FetchHandler } = withSentry(serverSentryOptions, {
  fetch(request: IncomingRequest, env: WorkerEnv, ctx: ExecutionContext) {
    const way = tracedRequests.get(request);
    if (!way) throw new Error("A traced request reached the SDK's handler without its step context.");
    // Taken now, inside the request's span: the report joins this trace under it.
    const span = getActiveSpan();
    const header = span ? spanToTraceHeader(span) : null;
    return way.next(request, {
      ...way.context,
      env,
      ctx,
      reporting: {
        report: reporterFor(request, env, ctx, () => untracedTraceHeader(header)),
        tracer: span && sentryTracer(span),
      },
    });
  },
});

/** The reporting step: traced requests through the SDK's wrapper, every request with its error reporter. */
export function reportRequest(incoming: Request, context: StepContext, next: Next): Promise<Response> {
  const request = ownPagesTraceOnly(incoming as IncomingRequest);
  const sentryTrace = request.headers.get("sentry-trace");
  const rate = context.config.reporting?.tracesSampleRate ?? 0;
  if (isTracedRequest(sentryTrace, rate)) {
    tracedRequests.set(request, { context, next });
    return traced.fetch(request, context.env, context.ctx);
  }
  const { env, ctx } = context;
  return next(request, {
    ...context,
    reporting: {
      report: reporterFor(request, env, ctx, () => untracedTraceHeader(sentryTrace)),
      tracer: undefined,
    },
  });
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
