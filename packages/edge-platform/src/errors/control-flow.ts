import { data, isRouteErrorResponse } from "react-router";

/**
 * "Control flow, not an error", decided once for the Worker, the renderer, both SDKs' filters and the
 * browser's `onError`: a thrown Response (a redirect), a `data()` and a route error response (404, 405)
 * pass through untouched and are never logged or reported (packages/edge-platform/docs/contract.md C8).
 */
export function isControlFlow(thrown: unknown): boolean {
  return thrown instanceof Response || isRouteErrorResponse(thrown) || isDataWithResponseInit(thrown);
}

type DataWithResponseInit = ReturnType<typeof data<unknown>>;

/** The class of what `data()` returns, from React Router's public API rather than the object's shape. */
const DataWithResponseInitClass = data(null).constructor as new (...args: never[]) => DataWithResponseInit;

/** Whether a value is what `data()` returns (thrown: a refusal with a status; returned: data with headers). */
export function isDataWithResponseInit(value: unknown): value is DataWithResponseInit {
  return value instanceof DataWithResponseInitClass;
}
