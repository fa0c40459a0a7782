import { PREFETCH_CONCURRENCY } from "../constants";
import { PageDataCache } from "../prefetch/page-data-cache";
import { PrefetchQueue } from "../prefetch/prefetch-queue";
import { isLoaded, loadStyle, markLoaded, preloadModule } from "../prefetch/preload";
import { pageDataPath } from "../single-fetch";
import { LinkPrefetcher } from "./link-prefetch";
import { prefetchStaleTime } from "./page-data";
import { pageDataFetch } from "./page-data-fetch";
import { planRoute, savesData } from "./prefetch-plan";
import {
  importRouteModules,
  interceptFetch,
  interceptNavigate,
  loadedAssetUrls,
  opensLikePageData,
  type RouterInternals,
} from "./react-router-adapter";
import { RouteAnnouncer } from "./route-announcer";
import {
  gateOnRouteCode,
  type NextNavigation,
  routeCodeLoaded,
  trackLatestNavigation,
} from "./route-code-gate";

/**
 * packages/edge-platform/docs/contract.md C2-C5 and C9 in the browser, on top of React Router, installed once as the app hydrates
 * (packages/edge-platform/docs/decisions/008-navigation-adapter.md). One job per module:
 * - prefetch-plan.ts: what a navigation to a URL needs (route code, whether it has data);
 * - link-prefetch.ts: which links are prefetched and when (visible, rendered, intent; packages/edge-platform/docs/contract.md C5's default);
 * - this module: prefetching it through one bounded queue (5 at once) and a cache for static pages' data;
 * - page-data-fetch.ts: page-data requests (cached data, and the full-navigation fallback);
 * - route-code-gate.ts: route code loaded before a navigation, within 3800 ms;
 * - full-navigation.ts: the fallback itself; react-router-adapter.ts: what needs React Router's internals;
 * - route-announcer.ts: each new page announced to screen readers, focus moved to it.
 */

const queue = new PrefetchQueue(PREFETCH_CONCURRENCY);
const dataCache = new PageDataCache();
let internals: RouterInternals | undefined;
let announcer: RouteAnnouncer | undefined;
let nativeFetch: typeof fetch = (...args) => fetch(...args);
let nextNavigation: NextNavigation | undefined;

/** Called once, by navigation-client.ts, as the app hydrates. */
export function installNavigationPlatform(next: RouterInternals, announcerRegionId: string): void {
  internals = next;
  announcer = new RouteAnnouncer(next.router.state.location.pathname, announcerRegionId);
  markLoaded(loadedAssetUrls(next));
  nativeFetch = interceptFetch(
    pageDataFetch({ router: next.router, queue, cache: dataCache, staleTimeOf: staticStaleTime }),
  );
  nextNavigation = trackLatestNavigation(next.router);
  interceptNavigate(next.router, gateOnRouteCode(queue, plan, importModules, nextNavigation));
  if (!savesData()) {
    new LinkPrefetcher((href, { ahead }) => prefetchPage(href, ahead)).start();
  }
}

/** After a render showing `pathname`: announces another page and moves focus to it. */
export function pageShown(pathname: string): void {
  if (internals) announcer?.pageShown(pathname, internals.router.state.historyAction);
}

/**
 * Prefetches what a navigation to `href` would need (packages/edge-platform/docs/contract.md C5). Does nothing off-origin or to save data.
 * `ahead` (intent on a link): its requests go to the front of the queue.
 */
export function prefetchPage(href: string, ahead = false): void {
  if (!internals || savesData()) return;
  const target = new URL(href, window.location.href);
  if (target.origin !== window.location.origin) return;
  const { modules, styles, hasData, leafRouteId } = plan(target);
  const code = modules.map((url) => queue.enqueue(url, () => preloadModule(url)));
  // Once its code is here, the page's route modules are run and handed to React Router, so that a click
  // needs no import of its own (route-code-gate.ts says why that matters).
  Promise.all(code).then(() => importModules(target), ignore);
  for (const url of styles) queue.enqueue(url, () => loadStyle(url, "low")).catch(ignore);
  const staleTime = prefetchStaleTime(leafRouteId);
  const dataPath = pageDataPath(target.pathname);
  // Dynamic pages (stale time 0) get their code warmed, never their data: it would be stale on arrival.
  // Data a navigation is fetching right now is not asked for again: it lands in the cache (page-data-fetch.ts).
  const wantsData =
    hasData && staleTime > 0 && !dataCache.isFresh(dataPath) && !dataCache.isLoading(dataPath);
  if (wantsData) queue.enqueue(dataPath, () => prefetchData(dataPath, staleTime)).catch(ignore);
  if (ahead) queue.moveAhead([...modules, ...styles, dataPath]);
}

/**
 * For a navigation that started before the platform was installed (navigation-client.ts held it): its
 * route code is loaded first, as for any other, and it counts as the visitor's choice made now. Resolves
 * once it may go ahead. One superseded meanwhile never settles: React Router's instrumentation runs the
 * held navigation as soon as its hook returns, so not returning is the only way to drop it. The hold does
 * not see `replace`: a fallback pushes.
 */
export async function routeCodeLoadedFor(to: string | number): Promise<void> {
  const superseded = nextNavigation?.() ?? new AbortController().signal;
  if (!(await routeCodeLoaded(queue, plan, to, "push", importModules, superseded))) {
    await new Promise<never>(() => {});
  }
}

function importModules(target: URL): Promise<void> {
  return internals ? importRouteModules(internals, target.pathname) : Promise.resolve();
}

function plan(target: URL) {
  if (!internals) return { modules: [], styles: [], hasData: false };
  return planRoute(internals.router, internals.manifest, target, isLoaded);
}

/** The stale time of a page's data when it is static (then a navigation's fetch of it is kept), else 0. */
function staticStaleTime(page: string): number {
  return prefetchStaleTime(plan(new URL(page, window.location.href)).leafRouteId);
}

async function prefetchData(dataPath: string, staleTime: number): Promise<void> {
  const response = await nativeFetch(dataPath, { credentials: "same-origin", priority: "low" });
  const body = await response.arrayBuffer();
  if (response.status !== 200 || !opensLikePageData(new Uint8Array(body)[0])) {
    throw new Error(`Not page data: ${dataPath} (${response.status})`);
  }
  dataCache.set(dataPath, { status: response.status, headers: [...response.headers], body }, staleTime);
}

function ignore(): void {}
