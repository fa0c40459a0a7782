import type { RouteTracer } from "../monitoring/route-tracer";

/** Sends one server error, tagged with its digest, to the error-reporting service. */
export type ServerErrorReporter = (error: unknown, digest: string) => void;

/**
 * One request's record of its server errors. It lives in the request (its RouterContext), never in a
 * module-level map: a cached rejected promise throws the same object in every request it breaks, and each of
 * those requests must log and report it (issue 18).
 */
export type RequestErrors = {
  /** What this request already recorded, with the digest: render + handleError must not double an error. */
  readonly recorded: Map<unknown, string>;
  /** How this request's errors are reported; undefined when reporting is off (no DSN). */
  readonly report: ServerErrorReporter | undefined;
  /** The matched route's pattern (`/items/:id`), once a route handler of the request has run. */
  route: string | undefined;
};

export function createRequestErrors(report?: ServerErrorReporter): RequestErrors {
  return { recorded: new Map(), report, route: undefined };
}

/** How a request is reported, as the Worker's reporting hands it to the app (none without a DSN). */
export type RequestReporting = {
  report: ServerErrorReporter;
  /** Only for a traced request. */
  tracer: RouteTracer | undefined;
};
