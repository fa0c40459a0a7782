import { PAGE_DATA_WAIT_MS, ROUTE_LOADING_TIMEOUT_MS } from "../constants";
import { matchedRoute, reportRouterError } from "../reporting/browser-reporting";
import { reportAcrossNavigation } from "../reporting/carried-reports";
import { navigationFailures } from "./navigation-failures";
import { afterNextPaint, loadStyle, type PrefetchQueue, preloadModule } from "./prefetch-queue";
import {
  type FullNavigation,
  holdRouteModules,
  importRouteModules,
  matchedRouteIds,
  navigationStarted,
  type RouterInternals,
} from "./react-router-adapter";

/**
 * The one gate every navigation asked of the router passes before React Router starts it (links,
 * `useNavigate`, form submissions, `router.navigate`): React Router's `navigate` instrumentation, a public
 * API, runs it (navigation-client.ts, `navigationGate`). It decides where the navigation goes:
 * - ahead, client-side, once the target's route code is loaded and run (packages/edge-platform/docs/contract.md C4): queued prefetches
 *   promoted, the modules handed to React Router, so that a navigation whose data is at hand completes
 *   within the task it starts in and React renders its "loading" and final states as one
 *   (packages/edge-platform/docs/decisions/023-click-in-one-render.md);
 * - to a full browser navigation when that code fails to load or takes longer than 3800 ms, so React
 *   Router never gets to reload the page being left (`navigateFully` is also the page-data fallback, C3);
 * - nowhere when the visitor chose again meanwhile (another navigation, a submission, Back or forward): a
 *   navigation still waiting for its code has not reached React Router, which therefore cannot cancel it as
 *   it cancels its own; the gate never lets it go ahead nor fall back. Its promise never settles: the
 *   instrumentation starts the navigation as soon as the gate returns, so not returning is the only way to
 *   drop it.
 * Back/forward (a number) and submissions other than GET go straight ahead: their code is normally loaded,
 * and a POST cannot be replayed as a document navigation. A refresh (a revalidation) does not pass the gate
 * and supersedes nothing.
 */

/** What the instrumentation tells of a navigation: `to` as a path (or a history delta), a form's method. */
export type NavigationRequest = { to: string | number; formMethod?: string };

/** Starts the navigation in React Router; call it at most once. */
export type Go = () => Promise<unknown>;

/** What a navigation to a URL needs loaded first: its route code not loaded yet. */
export type RouteCode = (target: URL) => { modules: string[]; styles: string[] };

/**
 * Starts fetching the page data a navigation to `target` will ask for, beside its route code, and returns
 * when it is here (undefined: nothing to wait for, it is at hand or not needed) and what drops it if the
 * navigation did not use it (page-data.ts, `NavigationData`).
 */
export type DataAhead = (target: URL) => { received: Promise<void> | undefined; drop: () => void };

export function createNavigationGate(
  internals: RouterInternals,
  queue: PrefetchQueue,
  routeCode: RouteCode,
  dataAhead: DataAhead,
) {
  let latest: AbortController | undefined;
  // Back and forward: React Router starts those itself, never through the gate.
  window.addEventListener("popstate", () => latest?.abort());

  return async function gate(started: Go, { to, formMethod }: NavigationRequest): Promise<void> {
    const go = checked(started);
    latest?.abort();
    latest = new AbortController();
    const superseded = latest.signal;
    const submission = formMethod !== undefined && formMethod.toUpperCase() !== "GET";
    const target = typeof to === "number" || submission ? undefined : resolveTarget(to);
    if (!target) {
      await go();
      return;
    }
    // Until it is done, the page the visitor asked for goes first: no prefetch starts, and its data is
    // asked for now, beside its code, instead of after it.
    const release = queue.hold();
    const data = dataAhead(target);
    const { received } = data;
    const deadline = performance.now() + PAGE_DATA_WAIT_MS;
    const dataArrived = received && (() => waitFor(received, deadline, superseded));
    let next: "done" | "dropped" | Exclude<RouteCodeOutcome, "loaded" | "superseded">;
    try {
      next = await proceed(go, target, superseded, dataArrived);
    } finally {
      data.drop();
      // Prefetches (and their planning) start once the page the visitor asked for is painted, not between
      // the navigation's end and React's render of it.
      afterNextPaint(release);
    }
    if (next === "dropped") return dropped();
    if (next !== "done") {
      // Invisible otherwise: the page unloads, its navigation transaction incomplete (dropped, C8). A deploy
      // that took old tabs' route code away shows up as these, with the route and the tab's release.
      reportAcrossNavigation("A navigation fell back to a full page load: its route code did not load", {
        route: matchedRoute(matchedRouteIds(internals, target.pathname)),
        "navigation.fallback": next === "timeout" ? "route-code-timeout" : "route-code-failed",
      });
      return leaveFor(internals, go, target);
    }
  };

  /**
   * The navigation once its route code is loaded and its page data is here or has had its time
   * (`dataArrived`, when it is on the network): done, dropped (superseded), or why its code did not load.
   */
  async function proceed(
    go: Go,
    target: URL,
    superseded: AbortSignal,
    dataArrived: (() => Promise<void>) | undefined,
  ) {
    const outcome = await loadRouteCode(queue, routeCode(target), superseded);
    if (superseded.aborted) return "dropped";
    if (outcome === "failed" || outcome === "timeout") return outcome;
    await importRouteModules(internals, target.pathname);
    if (superseded.aborted) return "dropped";
    if (dataArrived) {
      await dataArrived();
      if (superseded.aborted) return "dropped";
    }
    await go();
    return "done";
  }
}

/**
 * Settles when the page data has arrived, the deadline has passed (PAGE_DATA_WAIT_MS after the click) or the
 * navigation was superseded, whichever comes first. React Router, started then, takes data that is here
 * within the same task and renders its "loading" and final states as one (decision 023), as for prefetched
 * data; started before it came, it rendered the whole page for "loading" first, a render the data's own
 * then waited for on a phone's CPU (packages/edge-platform/docs/PERFORMANCE.md, "The click").
 */
function waitFor(arrived: Promise<void>, deadline: number, superseded: AbortSignal): Promise<void> {
  const left = deadline - performance.now();
  if (left <= 0 || superseded.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, left);
    superseded.addEventListener("abort", done, { once: true });
    arrived.then(done, done);
    function done() {
      clearTimeout(timer);
      superseded.removeEventListener("abort", done);
      resolve();
    }
  });
}

type RouteCodeOutcome = "loaded" | "failed" | "timeout" | "superseded";

/**
 * The navigation, with React Router's own rejection of it caught: route code that threw outside every loader
 * and component (a route's `shouldRevalidate`) makes React Router reject the navigation, so the click would
 * do nothing. Reported once, as uncaught, and the client-side error page shown on the location the visitor
 * was on (navigation-failures.ts).
 */
function checked(go: Go): Go {
  const locationKey = currentLocationKey();
  return async () => {
    const outcome = await go();
    if (isFailedNavigation(outcome)) {
      reportRouterError(outcome.error);
      navigationFailures.listener?.({ key: locationKey, error: outcome.error });
    }
    return outcome;
  };
}

/** What the instrumentation's handler resolves with when React Router rejected the navigation. */
function isFailedNavigation(outcome: unknown): outcome is { status: "error"; error: Error } {
  return (
    typeof outcome === "object" && outcome !== null && (outcome as { status?: unknown }).status === "error"
  );
}

/** React Router's key of the location shown: its history entry's, "default" for an entry it never keyed. */
function currentLocationKey(): string {
  const state: unknown = window.history.state;
  const key = typeof state === "object" && state !== null ? (state as { key?: unknown }).key : undefined;
  return typeof key === "string" ? key : "default";
}

/**
 * The target as a same-origin URL, or undefined for another origin. A relative `to` is resolved against the
 * page's URL (path-relative), which differs from React Router's route-relative resolution only for `..`
 * inside nested routes (decision 008): the gate then loads the wrong code and React Router loads its own.
 */
function resolveTarget(to: string): URL | undefined {
  const target = new URL(to, window.location.href);
  return target.origin === window.location.origin ? target : undefined;
}

/**
 * Loads a route's code through the queue. A superseded navigation stops waiting at once (its requests go
 * on, as prefetches would), so its time-out can never fire.
 */
async function loadRouteCode(
  queue: PrefetchQueue,
  { modules, styles }: { modules: string[]; styles: string[] },
  superseded: AbortSignal,
): Promise<RouteCodeOutcome> {
  if (modules.length === 0 && styles.length === 0) return "loaded";
  const loads = [
    ...modules.map((url) => queue.promote(url) ?? preloadModule(url)),
    ...styles.map((url) => queue.promote(url) ?? loadStyle(url, "high")),
  ];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopWaiting = () => {};
  const outcome = await Promise.race([
    Promise.all(loads).then(
      () => "loaded" as const,
      () => "failed" as const,
    ),
    new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ROUTE_LOADING_TIMEOUT_MS);
    }),
    new Promise<"superseded">((resolve) => {
      stopWaiting = () => resolve("superseded");
      superseded.addEventListener("abort", stopWaiting, { once: true });
    }),
  ]);
  clearTimeout(timer);
  superseded.removeEventListener("abort", stopWaiting);
  return outcome;
}

/**
 * The full navigation of contract C4. Whether it pushes or replaces only React Router knows (the
 * instrumentation is not told): it starts the navigation with the missing route modules held, so that it
 * neither imports them nor reloads this page, and its loading state names the history step.
 */
async function leaveFor(internals: RouterInternals, go: Go, target: URL): Promise<never> {
  leaving = true;
  holdRouteModules(internals, target.pathname);
  void go().catch(() => {});
  const started = await navigationStarted(internals.router, target.pathname);
  return navigateFully(started ?? { href: target.pathname + target.search + target.hash, kind: "push" });
}

let leaving = false;

/** Whether the page is leaving for a full navigation: nothing more is worth fetching. */
export function isLeaving(): boolean {
  return leaving;
}

/**
 * Does the full navigation; the page is unloading, so the returned promise never settles (nothing after it
 * may run). Back/forward have already moved the browser's history entry: reloading loads it.
 */
export function navigateFully({ href, kind }: FullNavigation): Promise<never> {
  leaving = true;
  if (kind === "replace") window.location.replace(href);
  else if (kind === "pop") window.location.reload();
  else window.location.assign(href);
  return dropped();
}

function dropped(): Promise<never> {
  return new Promise<never>(() => {});
}
