import { isControlFlow } from "../errors/control-flow";
import type { BrowserReportingConfig } from "./browser-config.server";
import type { BrowserErrorDetails, BrowserReporter, PageView } from "./browser-reporter";
import { takeEarlyErrors } from "./early-errors";
import { reportingRelease } from "./reporting-release";
import { matchedRouteName } from "./route-name";

/**
 * The browser's side of error reporting, as it sits in the first-load JavaScript: no Sentry code here.
 * The SDK is imported after hydration, when the browser is idle; until then errors and page views wait
 * in small queues.
 */

const MAX_QUEUED_ERRORS = 20;

let reporter: BrowserReporter | undefined;
let starting = false;
const queuedErrors: [unknown, BrowserErrorDetails][] = [];
/** Errors already reported: React and React Router may both hand over the same one. */
const reported = new WeakSet<object>();
let firstPage: PageView | undefined;
let pageStatus: number | undefined;
let lastLocationKey: string | undefined;

/**
 * The server's trace of this document (Sentry's `<meta name="sentry-trace">` and `baggage`), read as this
 * module runs, before hydration: a hydration React cannot complete renders the document again without them,
 * and the page load would then start a trace of its own on exactly the pages a team needs joined to the
 * server's (issue 42).
 */
const documentTrace =
  typeof document === "undefined"
    ? undefined
    : { sentryTrace: metaContent("sentry-trace"), baggage: metaContent("baggage") };

function metaContent(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
}

export function startBrowserReporting(config: BrowserReportingConfig): void {
  if (starting) return;
  starting = true;
  reportingRelease.value = config.release ?? "";
  whenIdle(async () => {
    const { createBrowserReporter } = await import("./browser-sentry.client");
    reporter = createBrowserReporter(config);
    // The page load first: errors from before the SDK loaded then join its trace and carry its route.
    if (firstPage) reporter.pageLoad(firstPage, documentTrace);
    for (const error of takeEarlyErrors()) reporter.captureException(error, { handled: false });
    for (const [error, details] of queuedErrors.splice(0)) reporter.captureException(error, details);
  });
}

/**
 * React Router's `onError`: an exception in the browser (render, client loader...) is reported once.
 * Control flow is not (control-flow.ts): 404s are not errors, and a server error's page already carries
 * the digest of the report the Worker sent. A streamed server failure is left out by the SDK's `beforeSend`
 * (event-filters.ts; out of the first load).
 */
export function reportRouterError(
  error: unknown,
  info?: { errorInfo?: { componentStack?: string | null } },
): void {
  if (isControlFlow(error)) return;
  report(error, { handled: false, componentStack: info?.errorInfo?.componentStack ?? undefined });
}

type ReactErrorInfo = { componentStack?: string | undefined };

/**
 * React's own error callbacks (`hydrateRoot` options), so errors outside React Router's route boundaries are
 * reported too, with their component stack: ones a boundary of the product's or the platform's caught
 * (the page goes on), ones nothing caught, and ones React recovered from (a hydration mismatch). An error
 * React Router's `onError` reported already is not reported again. Each is still written to the console,
 * as React would without these callbacks: the client-side error page sends the visitor there.
 */
export const reactErrorCallbacks = {
  // Deferred: React calls it before the boundary's own componentDidCatch, and a route's boundary and the
  // document's report the error as the page's failure, which this must not repeat as a handled one.
  onCaughtError: reactErrorCallback(true, true),
  onUncaughtError: reactErrorCallback(false),
  onRecoverableError: reactErrorCallback(true),
};

function reactErrorCallback(handled: boolean, deferred?: boolean) {
  return (error: unknown, { componentStack }: ReactErrorInfo) => {
    console.error(error);
    const send = () => isControlFlow(error) || report(error, { handled, componentStack });
    if (deferred) queueMicrotask(send);
    else send();
  };
}

function report(error: unknown, details: BrowserErrorDetails): void {
  if (typeof error === "object" && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  if (reporter) reporter.captureException(error, details);
  else if (queuedErrors.length < MAX_QUEUED_ERRORS) queuedErrors.push([error, details]);
}

/** The error page marks the page it renders as a 404 before the page view is recorded (child effects run first). */
export function markPageStatus(status: number): void {
  pageStatus = status;
}

/**
 * Records the page now shown (once per location: StrictMode runs effects twice): the page load the first
 * time, then the end of each navigation.
 */
export function recordPageView(locationKey: string, route: string): void {
  if (locationKey === lastLocationKey) return;
  lastLocationKey = locationKey;
  const page = { route, status: pageStatus };
  pageStatus = undefined;
  if (!firstPage) {
    firstPage = page;
    return;
  }
  reporter?.navigationEnd(page);
}

/** Each route's own path, by route id, as React Router's instrumentation info gives them. */
const routePaths = new Map<string, string | undefined>();

/** The route of a page, by the ids of its matches (`useMatches()`): `/items/:id`. */
export function matchedRoute(matchIds: readonly string[]): string {
  return matchedRouteName(matchIds.map((id) => routePaths.get(id)));
}

/**
 * React Router instrumentation: each route's path is noted as the router creates it (page views are named
 * by it), and each client navigation opens a span that the page view then names.
 */
export const navigationReporting = {
  route({ id, path }: { id: string; path: string | undefined }) {
    routePaths.set(id, path);
  },
  router({ instrument }: { instrument(instrumentations: { navigate?: NavigateInstrumentation }): void }) {
    instrument({
      async navigate(navigate, { to }) {
        reporter?.navigationStart(String(to));
        await navigate();
      },
    });
  },
};

type NavigateInstrumentation = (
  navigate: () => Promise<unknown>,
  info: { to: string | number },
) => Promise<void>;

function whenIdle(task: () => Promise<void>): void {
  const run = () => {
    task().catch((error: unknown) => console.warn("Error reporting could not start", error));
  };
  const schedule = () =>
    "requestIdleCallback" in window
      ? window.requestIdleCallback(run, { timeout: 5_000 })
      : setTimeout(run, 1_000);
  if (document.readyState === "complete") schedule();
  else window.addEventListener("load", schedule, { once: true });
}
