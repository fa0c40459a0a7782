import { useEffect } from "react";
import { isRouteErrorResponse } from "react-router";
import { markPageStatus } from "../reporting/browser-reporting";
import { type PlatformTexts, platformTexts } from "../visitor/texts";
import { useVisitor, visitorWhileRendering } from "../visitor/use-visitor";
import { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE } from "./error-messages";
import { isServerErrorResponse } from "./server-error-payload";

export { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE };

/** The route-level error page: not found, other HTTP errors, and the generic application error. */
export function ErrorPage({ error }: { error: unknown }) {
  const { locale } = useVisitor();
  const texts = platformTexts(locale);
  // The contract's sentences are English word for word (C1): marked so on a page in another language.
  const english = new Intl.Locale(locale).language === "en" ? undefined : "en";
  const status = isRouteErrorResponse(error) ? error.status : undefined;
  useEffect(() => {
    // A 404 page's transaction is left out of reporting (packages/edge-platform/docs/contract.md C8).
    if (status !== undefined) markPageStatus(status);
  }, [status]);

  if (isServerErrorResponse(error)) {
    return (
      <section className="app-error" role="alert">
        <h1 lang={english}>{SERVER_ERROR_MESSAGE}</h1>
        <p className="digest" lang={english}>
          Digest: {error.data.digest}
        </p>
      </section>
    );
  }
  if (isRouteErrorResponse(error)) {
    return (
      <section className="http-error">
        <h1>{error.status}</h1>
        <p>{httpErrorMessage(error.status, error.statusText, error.data, texts)}</p>
      </section>
    );
  }
  return (
    <section className="app-error" role="alert">
      <h1 lang={english}>{CLIENT_ERROR_MESSAGE}</h1>
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
function httpErrorMessage(status: number, statusText: string, body: unknown, texts: PlatformTexts): string {
  if (status === 404) return texts.notFound;
  if (status === 405) return texts.methodNotAllowed;
  if (typeof body === "string" && body.length > 0 && body.length <= 300) return body;
  return statusText || texts.requestFailed;
}

/**
 * The document title and description of an error page (every page has both), in the visitor's language. For
 * a route's `meta` export (React Router calls it while rendering `<Meta>`, which is what lets it read the
 * visitor: visitorWhileRendering).
 */
export function errorMeta(error: unknown) {
  const texts = platformTexts(visitorWhileRendering().locale);
  const http = isServerErrorResponse(error) || !isRouteErrorResponse(error) ? undefined : error;
  return [
    {
      title: !http
        ? "Application error"
        : http.status === 404
          ? texts.notFoundTitle
          : `${http.status}: ${http.statusText || texts.requestFailed}`,
    },
    {
      name: "description",
      content: http
        ? httpErrorMessage(http.status, http.statusText, http.data, texts)
        : isServerErrorResponse(error)
          ? SERVER_ERROR_MESSAGE
          : CLIENT_ERROR_MESSAGE,
    },
  ];
}
