import { isRouteErrorResponse } from "react-router";

/**
 * "Control flow, not an error", decided once for the Worker, the renderer, both SDKs' filters and the
 * browser's `onError`: a thrown Response (a redirect), a `data()` and a route error response (404, 405)
 * pass through untouched and are never logged or reported (docs/contract.md C8).
 */
export function isControlFlow(thrown: unknown): boolean {
  return (
    thrown instanceof Response ||
    isRouteErrorResponse(thrown) ||
    (typeof thrown === "object" &&
      thrown !== null &&
      (thrown as { type?: unknown }).type === "DataWithResponseInit")
  );
}
