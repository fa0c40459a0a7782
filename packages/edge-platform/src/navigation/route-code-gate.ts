import { createPath, type DataRouter, type To } from "react-router";
import { ROUTE_LOADING_TIMEOUT_MS } from "../constants";
import type { PrefetchQueue } from "../prefetch/prefetch-queue";
import { loadStyle, preloadModule } from "../prefetch/preload";
import { navigateFully } from "./full-navigation";
import type { RoutePlan } from "./prefetch-plan";
import { type Navigate, onSubmission } from "./react-router-adapter";

/**
 * Runs the target's route modules and hands them to React Router (react-router-adapter.ts,
 * `importRouteModules`), so that the navigation finds them instead of importing them itself.
 */
export type ImportRouteModules = (target: URL) => Promise<void>;

/**
 * The visitor's latest choice of where to go: each navigation asked of the router, each Back/forward (a
 * popstate: React Router starts those itself, never through the gate) and each form submission (which may
 * not come through the gate either, react-router-adapter.ts) supersedes the one before.
 * A navigation still waiting for its route code has not reached React Router, which therefore cannot
 * cancel it as it cancels its own: the gate drops it itself when its signal aborts.
 */
export type NextNavigation = () => AbortSignal;

/** Installed once, with the gate. */
export function trackLatestNavigation(router: DataRouter): NextNavigation {
  let latest: AbortController | undefined;
  window.addEventListener("popstate", () => latest?.abort());
  onSubmission(router, () => latest?.abort());
  return function nextNavigation(): AbortSignal {
    latest?.abort();
    latest = new AbortController();
    return latest.signal;
  };
}

/**
 * packages/edge-platform/docs/contract.md C4: before a client navigation, the target's route code is loaded (promoting its queued
 * prefetches); when that fails or takes longer than 3800 ms, the browser loads the target page instead,
 * so React Router never gets to reload the page being left. Back/forward are not gated (their code is
 * normally loaded); submissions are not (a POST cannot be replayed as a document navigation).
 * A navigation superseded while its code loads (another click, Back, a `navigate()` call) is dropped: it
 * never goes ahead later nor falls back to a full navigation, so the visitor's last choice wins (its
 * promise resolves, as React Router's own superseded navigations' do).
 * Once loaded, the route modules are also run before React Router starts the navigation: React Router's
 * own `import()` of a route module resumes in a later task, and meanwhile React renders the router's
 * "loading" state, a whole render of the page being left. With the modules (and, preload.ts, the route
 * CSS) already there, a navigation whose data is at hand completes within the task it starts in, and
 * React renders its "loading" and final states as one (packages/edge-platform/docs/decisions/023-click-in-one-render.md).
 */
export function gateOnRouteCode(
  queue: PrefetchQueue,
  plan: (target: URL) => RoutePlan,
  importRouteModules: ImportRouteModules,
  nextNavigation: NextNavigation,
) {
  return async function navigateWhenCodeLoaded(
    navigate: Navigate,
    to: To | number | null,
    options?: { replace?: boolean; formMethod?: string },
  ): Promise<void> {
    const superseded = nextNavigation();
    const isSubmission = options?.formMethod !== undefined && options.formMethod.toUpperCase() !== "GET";
    if (!isSubmission) {
      const kind = options?.replace ? "replace" : "push";
      if (!(await routeCodeLoaded(queue, plan, to, kind, importRouteModules, superseded))) return;
    }
    return navigate(to, options);
  };
}

/**
 * Resolves true once the route code of `to` is loaded and its modules run, false when `superseded` aborts
 * first (the navigation must not go ahead); when the code cannot be loaded, does the full navigation
 * instead and never resolves (the page is unloading). Back/forward (a number) are not gated.
 */
export async function routeCodeLoaded(
  queue: PrefetchQueue,
  plan: (target: URL) => RoutePlan,
  to: To | number | null,
  kind: "push" | "replace",
  importRouteModules: ImportRouteModules,
  superseded: AbortSignal,
): Promise<boolean> {
  if (typeof to === "number") return true;
  const target = resolveTarget(to);
  if (target.origin !== window.location.origin) return true;
  const outcome = await loadRouteCode(queue, plan(target), superseded);
  if (superseded.aborted) return false;
  if (outcome !== "loaded") {
    await navigateFully({ href: target.pathname + target.search + target.hash, kind });
  }
  await importRouteModules(target);
  return !superseded.aborted;
}

/**
 * Loads a route's code through the queue. A superseded navigation stops waiting at once (its requests go
 * on, as prefetches would), so its time-out can never fire.
 */
async function loadRouteCode(
  queue: PrefetchQueue,
  { modules, styles }: RoutePlan,
  superseded: AbortSignal,
): Promise<"loaded" | "failed" | "timeout" | "superseded"> {
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
 * The target as a URL. A relative `to` is resolved against the page's URL (path-relative), which differs
 * from React Router's route-relative resolution only for `..` inside nested routes (decision 008).
 */
function resolveTarget(to: To | null): URL {
  if (to === null) return new URL(window.location.href);
  if (typeof to === "string") return new URL(to, window.location.href);
  return new URL(
    createPath({ pathname: to.pathname ?? window.location.pathname, search: to.search, hash: to.hash }),
    window.location.href,
  );
}
