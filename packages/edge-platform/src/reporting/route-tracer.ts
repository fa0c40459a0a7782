/**
 * What the platform's React Router instrumentations (route-tracing.server.ts) ask of a traced request. The
 * Worker's Sentry set-up implements it (packages/edge-platform/src/worker/reporting.ts); this module carries no Sentry code, so
 * the renderer never loads the SDK.
 */
export type RouteTracer = {
  /** Names the request's transaction (`GET /items/:id`), as a route. */
  nameTransaction(name: string): void;
  /** Runs one route handler (loader, action, middleware) inside a span of its own. */
  span(
    handler: { name: string; op: string; attributes: Record<string, string> },
    run: () => Promise<{ status: "success" | "error" }>,
  ): Promise<void>;
  /** The request's trace as headers (`sentry-trace`, `baggage`): a document hands it to the browser's page load. */
  traceHeaders(): { sentryTrace: string; baggage: string };
};
