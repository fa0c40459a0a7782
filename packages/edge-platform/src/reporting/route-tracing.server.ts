import type { ServerInstrumentation } from "react-router";
import { failedHandlerKey } from "../errors/with-error-digests.server";
import { getRequestContext } from "../request-context";
import { routeName, transactionName } from "./route-name";

type HandlerKind = "loader" | "action" | "middleware";
type HandlerInfo = { request: { method: string }; pattern: string; context: { get: unknown } };

/**
 * Server traces by route, through React Router's public `instrumentations` (exported by the server entry):
 * each loader, action and middleware of the matched routes runs in a span, and the request's transaction
 * is named after React Router's pattern for the match (`GET /items/:id`), for documents and `.data`
 * requests alike. Requests that are not traced carry no tracer and pay one context read per handler.
 */
export const routeTracing: ServerInstrumentation = {
  route(route) {
    const traced =
      (kind: HandlerKind) => (run: () => Promise<{ status: "success" | "error" }>, info: HandlerInfo) =>
        traceHandler(kind, route.id, run, info);
    route.instrument({
      loader: traced("loader"),
      action: traced("action"),
      middleware: traced("middleware"),
    });
  },
};

async function traceHandler(
  kind: HandlerKind,
  routeId: string,
  run: () => Promise<{ status: "success" | "error" }>,
  info: HandlerInfo,
): Promise<void> {
  const { tracer, errors } = getRequestContext(info.context as Parameters<typeof getRequestContext>[0]);
  if (!tracer) {
    await run();
    return;
  }
  tracer.nameTransaction(transactionName(info.request.method, info.pattern));
  await tracer.span(
    {
      name: routeId,
      // A function span (Sentry's `function.*` ops), by the kind of handler.
      op: `function.react-router.${kind}`,
      attributes: { "react_router.route.id": routeId, "react_router.route.pattern": routeName(info.pattern) },
    },
    async () => {
      const { status } = await run();
      // The guard throws an exception's digest as data, which React Router's instrumentation calls a success.
      return { status: errors.failedHandlers.has(failedHandlerKey(kind, routeId)) ? "error" : status };
    },
  );
}
