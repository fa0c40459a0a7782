import { isRouteErrorResponse } from "react-router";
import { reportServerError } from "../monitoring/server-sentry.server";
import { errorDigest } from "./digest";
import type { ServerErrorPayload } from "./server-error-payload";

/** Errors already logged, so an error seen by several hooks (render + handleError) logs once. */
const recordedDigests = new WeakMap<object, string>();

/**
 * The one place a server error is recorded: one structured log line and one error report (when reporting
 * is on), both carrying the digest that the error page shows (docs/contract.md C1), so a user's screenshot finds the
 * cause. Returns the digest.
 */
export function recordServerError(error: unknown, request: Request): string {
  const known = isObject(error) ? recordedDigests.get(error) : undefined;
  if (known) return known;
  const digest = errorDigest(error);
  if (isObject(error)) recordedDigests.set(error, digest);
  console.error(
    JSON.stringify({
      level: "error",
      event: "server_error",
      digest,
      method: request.method,
      path: new URL(request.url).pathname,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : { value: String(error) },
    }),
  );
  reportServerError(error, digest);
  return digest;
}

/**
 * Thrown Responses, `data()` and route error responses are control flow (redirects, 404s), not
 * failures: they pass through untouched and are never recorded.
 */
export function isControlFlow(error: unknown): boolean {
  return (
    error instanceof Response ||
    isRouteErrorResponse(error) ||
    (isObject(error) && (error as { type?: unknown }).type === "DataWithResponseInit")
  );
}

/**
 * What the browser may see of an uncaught server exception: its digest, nothing else (docs/contract.md C1).
 * Undefined for control flow and for aborted requests (nobody is waiting for the answer).
 */
export function serverErrorPayload(error: unknown, request: Request): ServerErrorPayload | undefined {
  if (isControlFlow(error) || request.signal.aborted) return undefined;
  return { digest: recordServerError(error, request) };
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}
