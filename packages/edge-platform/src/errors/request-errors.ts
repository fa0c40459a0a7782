import type { RouteTracer } from "../reporting/route-tracer";

/** What a report says of the error besides the error itself: its digest and where it happened. */
export type ServerErrorReport = {
  digest: string;
  method: string;
  /** The matched route's pattern (`/items/:id`); undefined when no route handler ran. */
  route: string | undefined;
};

/** Sends one server error, tagged with its digest and named by its route, to the error-reporting service. */
export type ServerErrorReporter = (error: unknown, report: ServerErrorReport) => void;

/**
 * One request's record of its server errors. It lives in the request (its RouterContext), never in a
 * module-level map: a cached rejected promise throws the same object in every request it breaks, and each of
 * those requests must log and report it (packages/edge-platform/docs/decisions/014-reporting-per-request.md).
 */
export type RequestErrors = {
  /** What this request already recorded, with the digest: render + handleError must not double an error. */
  readonly recorded: Map<unknown, string>;
  /** How this request's errors are reported; undefined when reporting is off (no DSN). */
  readonly report: ServerErrorReporter | undefined;
  /** The matched route's pattern (`/items/:id`), once a route handler of the request has run. */
  route: string | undefined;
  /**
   * The digest of an error a route's `headers` export threw. React Router calls `headers` after the handlers
   * and answers an empty 500 when it throws; the Worker answers the request again with this digest instead
   * (with-error-digests.server.ts).
   */
  headersFailure: string | undefined;
  /** The handlers of this request that failed (an exception or a 5xx), by failedHandlerKey. */
  readonly failedHandlers: Set<string>;
  /** Whether this request already logged a 5xx answer a route chose itself (one line per request). */
  errorStatusLogged: boolean;
  /** The id this request's log lines carry, made by the first one. */
  requestId: string | undefined;
};

export function createRequestErrors(report?: ServerErrorReporter): RequestErrors {
  return {
    recorded: new Map(),
    report,
    route: undefined,
    failedHandlers: new Set(),
    headersFailure: undefined,
    errorStatusLogged: false,
    requestId: undefined,
  };
}

/** How a request is reported, as the Worker's reporting hands it to the app (none without a DSN). */
export type RequestReporting = {
  report: ServerErrorReporter;
  /** Only for a traced request. */
  tracer: RouteTracer | undefined;
};
