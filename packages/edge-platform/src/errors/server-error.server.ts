import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "../request-context";
import { isControlFlow } from "./control-flow";
import { errorDigest } from "./digest";
import type { RequestErrors } from "./request-errors";
import type { ServerErrorPayload } from "./server-error-payload";

/** What every recording site has: the request and its context (a loader's, an action's or the renderer's). */
export type ServerErrorScope = { request: Request; context: Readonly<RouterContextProvider> };

/**
 * The one place a server error is recorded: one structured log line and one error report (when reporting
 * is on), both carrying the digest that the error page shows (packages/edge-platform/docs/contract.md C1), so a user's screenshot
 * finds the cause. Once per request. Returns the digest.
 */
export function recordServerError(error: unknown, { request, context }: ServerErrorScope): string {
  const errors = getRequestContext(context).errors;
  const known = errors.recorded.get(error);
  if (known) return known;
  const digest = errorDigest(error);
  errors.recorded.set(error, digest);
  console.error(
    JSON.stringify({
      level: "error",
      event: "server_error",
      digest,
      ...requestFields(request, errors),
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : { value: String(error) },
    }),
  );
  errors.report?.(error, { digest, method: request.method, route: errors.route });
  return digest;
}

/**
 * A 5xx a route answered itself (`data(…, { status: 503 })`, returned or thrown, or a Response): a deliberate
 * answer rather than an exception, so no digest and no error report (packages/edge-platform/docs/reporting.md, "What a team gets
 * for each kind of failure"), but a failure all the same: one log line per request, with the route, the
 * status and the request's id. A traced request's transaction carries the status too.
 */
export function recordErrorStatus(status: number, { request, context }: ServerErrorScope): void {
  const errors = getRequestContext(context).errors;
  if (status < 500 || errors.errorStatusLogged) return;
  errors.errorStatusLogged = true;
  console.error(
    JSON.stringify({
      level: "error",
      event: "server_error_status",
      status,
      ...requestFields(request, errors),
    }),
  );
}

/** What every server log line says of its request. The path only: query values may be personal data. */
function requestFields(request: Request, errors: RequestErrors) {
  // Cloudflare's id of the request (its Ray ID, what its own logs show); locally, one made for the request.
  errors.requestId ??= request.headers.get("cf-ray") ?? crypto.randomUUID();
  return {
    method: request.method,
    path: new URL(request.url).pathname,
    route: errors.route,
    request_id: errors.requestId,
  };
}

/**
 * What the browser may see of an uncaught server exception: its digest, nothing else (packages/edge-platform/docs/contract.md C1).
 * Undefined for control flow and for aborted requests (nobody is waiting for the answer).
 */
export function serverErrorPayload(error: unknown, scope: ServerErrorScope): ServerErrorPayload | undefined {
  if (isControlFlow(error) || scope.request.signal.aborted) return undefined;
  return { digest: recordServerError(error, scope) };
}

/**
 * Records the rejection of a promise the request no longer awaits (streamed loader data, `waitUntil` work):
 * it fails after the Response exists, where no error boundary or `handleError` sees it. The promise itself
 * is left as it is (React Router still streams its rejection to `<Await errorElement>`).
 */
export function recordRejection(promise: PromiseLike<unknown>, scope: ServerErrorScope): void {
  promise.then(undefined, (error: unknown) => {
    serverErrorPayload(error, scope);
  });
}
