import { createPath, type To } from "react-router";
import { ROUTE_LOADING_TIMEOUT_MS } from "../constants";
import type { PrefetchQueue } from "../prefetch/prefetch-queue";
import { loadStyle, preloadModule } from "../prefetch/preload";
import { navigateFully } from "./full-navigation";
import type { RoutePlan } from "./prefetch-plan";
import type { Navigate } from "./react-router-adapter";

/**
 * Runs the target's route modules and hands them to React Router (react-router-adapter.ts,
 * `importRouteModules`), so that the navigation finds them instead of importing them itself.
 */
export type ImportRouteModules = (target: URL) => Promise<void>;

/**
 * docs/contract.md C4: before a client navigation, the target's route code is loaded (promoting its queued
 * prefetches); when that fails or takes longer than 3800 ms, the browser loads the target page instead,
 * so React Router never gets to reload the page being left. Back/forward are not gated (their code is
 * normally loaded); submissions are not (a POST cannot be replayed as a document navigation).
 * Once loaded, the route modules are also run before React Router starts the navigation: React Router's
 * own `import()` of a route module resumes in a later task, and meanwhile React renders the router's
 * "loading" state, a whole render of the page being left. With the modules (and, preload.ts, the route
 * CSS) already there, a navigation whose data is at hand completes within the task it starts in, and
 * React renders its "loading" and final states as one (docs/decisions/023-click-in-one-render.md).
 */
export function gateOnRouteCode(
  queue: PrefetchQueue,
  plan: (target: URL) => RoutePlan,
  importRouteModules: ImportRouteModules,
) {
  return async function navigateWhenCodeLoaded(
    navigate: Navigate,
    to: To | number | null,
    options?: { replace?: boolean; formMethod?: string },
  ): Promise<void> {
    const isSubmission = options?.formMethod !== undefined && options.formMethod.toUpperCase() !== "GET";
    if (!isSubmission) {
      await routeCodeLoaded(queue, plan, to, options?.replace ? "replace" : "push", importRouteModules);
    }
    return navigate(to, options);
  };
}

/**
 * Resolves once the route code of `to` is loaded and its modules run; when it cannot be loaded, does the
 * full navigation instead and never resolves (the page is unloading). Back/forward (a number) are not
 * gated.
 */
export async function routeCodeLoaded(
  queue: PrefetchQueue,
  plan: (target: URL) => RoutePlan,
  to: To | number | null,
  kind: "push" | "replace",
  importRouteModules: ImportRouteModules,
): Promise<void> {
  if (typeof to === "number") return;
  const target = resolveTarget(to);
  if (target.origin !== window.location.origin) return;
  if (!(await loadRouteCode(queue, plan(target)))) {
    await navigateFully({ href: target.pathname + target.search + target.hash, kind });
  }
  await importRouteModules(target);
}

/** Loads a route's code through the queue; false when it failed or took too long. */
async function loadRouteCode(queue: PrefetchQueue, { modules, styles }: RoutePlan): Promise<boolean> {
  if (modules.length === 0 && styles.length === 0) return true;
  const loads = [
    ...modules.map((url) => queue.promote(url) ?? preloadModule(url)),
    ...styles.map((url) => queue.promote(url) ?? loadStyle(url, "high")),
  ];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    Promise.all(loads).then(
      () => "loaded" as const,
      () => "failed" as const,
    ),
    new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ROUTE_LOADING_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  return outcome === "loaded";
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
