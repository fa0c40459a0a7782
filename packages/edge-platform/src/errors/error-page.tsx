import { useEffect } from "react";
import { isRouteErrorResponse } from "react-router";
import { markPageStatus } from "../reporting/browser-reporting";
import { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE } from "./error-messages";
import { isServerErrorResponse } from "./server-error-payload";

export { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE };

/** The route-level error page: not found, other HTTP errors, and the generic application error. */
export function ErrorPage({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : undefined;
  useEffect(() => {
    // A 404 page's transaction is left out of reporting (packages/edge-platform/docs/contract.md C8).
    if (status !== undefined) markPageStatus(status);
  }, [status]);

  if (isServerErrorResponse(error)) {
    return (
      <section className="app-error" role="alert">
        <h1>{SERVER_ERROR_MESSAGE}</h1>
        <p className="digest">Digest: {error.data.digest}</p>
      </section>
    );
  }
  if (isRouteErrorResponse(error)) {
    return (
      <section className="http-error">
        <h1>{error.status}</h1>
        <p>{httpErrorMessage(error.status, error.statusText, error.data)}</p>
      </section>
    );
  }
  return (
    <section className="app-error" role="alert">
      <h1>{CLIENT_ERROR_MESSAGE}</h1>
      {import.meta.env.DEV && error instanceof Error ? <pre>{error.stack}</pre> : null}
    </section>
  );
}

/**
 * The two statuses React Router answers itself, 404 and 405, get a fixed sentence: its own message names the
 * URL and, for a 405, the route ("You made a PATCH request to … but did not provide an `action` for route
 * …"), which is for developers (packages/edge-platform/docs/decisions/019-probe-findings.md). Other 4xx/5xx say what the server said
 * (a short plain message) or their status text, which the server sets right
 * (errors/with-error-digests.server.ts).
 */
function httpErrorMessage(status: number, statusText: string, body: unknown): string {
  if (status === 404) return "This page could not be found.";
  if (status === 405) return "Method Not Allowed: this page does not accept that kind of request.";
  if (typeof body === "string" && body.length > 0 && body.length <= 300) return body;
  return statusText || "Request failed.";
}

/** The document title and description of an error page (every page has both). */
export function errorMeta(error: unknown) {
  const http = isServerErrorResponse(error) || !isRouteErrorResponse(error) ? undefined : error;
  return [
    {
      title: !http
        ? "Application error"
        : http.status === 404
          ? "404: Page not found"
          : `${http.status}: ${http.statusText || "Request failed"}`,
    },
    {
      name: "description",
      content: http
        ? httpErrorMessage(http.status, http.statusText, http.data)
        : isServerErrorResponse(error)
          ? SERVER_ERROR_MESSAGE
          : CLIENT_ERROR_MESSAGE,
    },
  ];
}
