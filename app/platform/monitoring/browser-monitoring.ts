import { isControlFlow } from "../errors/control-flow";
import type { BrowserMonitoringConfig } from "./browser-config.server";
import type { BrowserReporter, PageView } from "./browser-reporter";
import { takeEarlyErrors } from "./early-errors";
import { matchedRouteName } from "./route-name";

/**
 * The browser's side of error reporting, as it sits in the first-load JavaScript: no Sentry code here.
 * The SDK is imported after hydration, when the browser is idle; until then errors and page views wait
 * in small queues.
 */

const MAX_QUEUED_ERRORS = 20;

let reporter: BrowserReporter | undefined;
let starting = false;
const queuedErrors: unknown[] = [];
let firstPage: PageView | undefined;
let pageStatus: number | undefined;
let lastLocationKey: string | undefined;

export function startBrowserMonitoring(config: BrowserMonitoringConfig): void {
  if (starting) return;
  starting = true;
  whenIdle(async () => {
    const { createBrowserReporter } = await import("./browser-sentry.client");
    reporter = createBrowserReporter(config);
    for (const error of [...takeEarlyErrors(), ...queuedErrors.splice(0)]) reporter.captureException(error);
    if (firstPage) reporter.pageLoad(firstPage);
  });
}

/**
 * React Router's `onError`: an exception in the browser (render, client loader...) is reported once.
 * Control flow is not (control-flow.ts): 404s are not errors, and a server error's page already carries
 * the digest of the report the Worker sent.
 */
export function reportRouterError(error: unknown): void {
  if (isControlFlow(error)) return;
  if (reporter) reporter.captureException(error);
  else if (queuedErrors.length < MAX_QUEUED_ERRORS) queuedErrors.push(error);
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
export const navigationMonitoring = {
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
