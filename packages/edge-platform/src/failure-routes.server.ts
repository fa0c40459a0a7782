import { data, type RouterContextProvider } from "react-router";
import { getRequestContext } from "./request-context";

/**
 * The reference failure routes exist to prove the application-error page (packages/edge-platform/docs/contract.md C1). They answer 404
 * unless ENABLE_FAILURE_ROUTES is "true", which the deployed configuration never sets.
 */
export function assertFailureRoutesEnabled(context: Readonly<RouterContextProvider>): void {
  if (!getRequestContext(context).config.failureRoutes) throw data(null, { status: 404 });
}
