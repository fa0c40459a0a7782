import { isbot } from "isbot";
import { preload } from "react-dom";
import { renderToReadableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { STATIC_ROUTE_IDS } from "./build-config";
import { INLINE_STYLESHEETS } from "./built-stylesheets";
import { recordServerError, serverErrorPayload } from "./errors/server-error.server";
import { setRenderedDocumentHeaders } from "./headers";
import { NonceProvider } from "./nonce";
import { sharedCachePolicy } from "./page-cache/policy";
import { readRenderedHead, routeStylesheets, splitHead } from "./rendered-head";
import { routeTracing } from "./reporting/route-tracing.server";
import { getRequestContext } from "./request-context";
import { VisitorProvider } from "./visitor/use-visitor";
import { sharedVisitor } from "./visitor/visitor";

/** React Router's instrumentation of every route handler: spans and route-named transactions when traced. */
export const instrumentations = [routeTracing];

/** Deferred data still pending after this long is rejected, so no stream stays open for ever. */
export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce, config, tracer, visitor } = getRequestContext(loadContext);
  let statusCode = responseStatusCode;
  const leafRouteId = routerContext.staticHandlerContext.matches.at(-1)?.route.id;
  // A pre-rendered page is one copy for every visitor in its language, with no time zone (docs/i18n.md); the
  // build renders it once per locale (vite/locale-copies.ts), and a page not built so renders the same way.
  const pageVisitor = isStaticRoute(leafRouteId) ? sharedVisitor(visitor.locale) : visitor;
  const trace =
    tracer && isPerVisitorDocument(responseStatusCode, responseHeaders, leafRouteId)
      ? tracer.traceHeaders()
      : undefined;
  let shellRendered = false;

  let body: ReadableStream & { allReady: Promise<void> };
  try {
    body = await renderToReadableStream(
      <NonceProvider nonce={nonce}>
        <VisitorProvider visitor={{ ...pageVisitor, renderedAt: Date.now() }}>
          {trace ? <TraceMeta {...trace} /> : null}
          <StylesheetPreloads hrefs={routeStylesheets(routerContext)} />
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </VisitorProvider>
      </NonceProvider>,
      {
        nonce,
        signal: request.signal,
        onError(error) {
          statusCode = 500;
          // Errors before the shell reject the render and are handled below; later ones (inside a
          // Suspense boundary) are retried by React in the browser, but the server still logs them.
          if (shellRendered && !request.signal.aborted)
            recordServerError(error, { request, context: loadContext });
        },
      },
    );
  } catch (error) {
    // A component threw while rendering the shell. Throwing a Response makes React Router render the
    // error boundary a second time with this digest-only 500 (packages/edge-platform/docs/contract.md C1) instead of a sanitized Error.
    const payload = serverErrorPayload(error, { request, context: loadContext });
    throw payload ? Response.json(payload, { status: 500 }) : error;
  }
  shellRendered = true;

  // Crawlers and pre-rendering get the whole document at once; browsers get it streamed.
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;

  // The rendered <head>, which both the policy and the `Link` header are read from (headers.ts).
  const { head, body: document } = await splitHead(body);
  setRenderedDocumentHeaders(
    responseHeaders,
    readRenderedHead(head),
    nonce,
    { development: import.meta.env.DEV, reportOrigin: config.reporting?.directOrigin },
    INLINE_STYLESHEETS,
  );
  return new Response(document, { headers: responseHeaders, status: statusCode });
}

/**
 * Paint first (packages/edge-platform/docs/decisions/018-paint-first.md): React writes preloads ahead of the modulepreload links it
 * hoists, and React Router links a route's imported stylesheets after those; preloading them here starts
 * their fetch first. The root's stylesheet needs none: it is inlined (document.tsx `stylesheets`).
 */
function StylesheetPreloads({ hrefs }: { hrefs: string[] }) {
  for (const href of hrefs) preload(href, { as: "style" });
  return null;
}

/**
 * A traced document hands its trace to the browser, whose page load continues it (one trace per visit), as
 * Sentry's `<meta name="sentry-trace">` and `<meta name="baggage">`; React hoists both into `<head>`. The
 * browser renders neither: they are read once, when the page load starts.
 */
function TraceMeta({ sentryTrace, baggage }: { sentryTrace: string; baggage: string }) {
  return (
    <>
      <meta name="sentry-trace" content={sentryTrace} />
      <meta name="baggage" content={baggage} />
    </>
  );
}

/**
 * Whether a document is this visitor's alone: never one a shared cache may store (its headers allow it) or a
 * pre-rendered page (rendered once at build), which must carry no trace of the request that rendered it.
 */
function isPerVisitorDocument(status: number, headers: Headers, leafRouteId: string | undefined): boolean {
  if (isStaticRoute(leafRouteId)) return false;
  return sharedCachePolicy(status, headers) === undefined;
}

function isStaticRoute(leafRouteId: string | undefined): boolean {
  return leafRouteId !== undefined && STATIC_ROUTE_IDS.has(leafRouteId);
}

/**
 * React Router's last hook for server errors it caught itself. Route handlers are already guarded
 * (withServerErrorDigests), so what arrives here is mostly control flow (404/405), which is not logged.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  serverErrorPayload(error, { request, context });
};
