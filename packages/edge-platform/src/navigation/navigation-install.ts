import type { NavigationType } from "react-router";
import { PREFETCH_CONCURRENCY } from "../constants";
import { matchedRoute } from "../reporting/browser-reporting";
import { zoneOffMainThread, zoneWorkerModule } from "../visitor/zone-worker";
import { LinkPrefetcher } from "./link-prefetch";
import { createNavigationGate, type DataAhead, type Go, type NavigationRequest } from "./navigation-gate";
import {
  NavigationData,
  PageDataCache,
  pageDataFetch,
  pageDataKey,
  prefetchPageData,
  prefetchStaleTime,
} from "./page-data";
import { isLoaded, loadStyle, markLoaded, PrefetchQueue, preloadModule, savesData } from "./prefetch-queue";
import {
  hydratedRouter,
  importRouteModules,
  interceptFetch,
  leafRouteId,
  loadedAssetUrls,
  matchedRouteIds,
  pageDataUrlFor,
  type RouterInternals,
  routeCodeFor,
} from "./react-router-adapter";
import { RouteAnnouncer } from "./route-announcer";

/**
 * packages/edge-platform/docs/contract.md C2-C5 and C9 in the browser, on top of React Router, installed
 * once after hydration (packages/edge-platform/docs/navigation.md). This module wires the others and
 * prefetches a page:
 * - navigation-client.ts: the first-load part (loads this module, holds navigations until it is here, the
 *   `usePrefetch` verb);
 * - navigation-gate.ts: the one gate in front of React Router's `navigate` (route code first, C4) and the
 *   full-navigation fallback;
 * - prefetch-queue.ts: the bounded queue (5 at once) and the route-code requests it runs;
 * - link-prefetch.ts: which links are prefetched and when (visible, rendered, intent);
 * - page-data.ts: page-data requests (stale times, the cache, the C3 fallback);
 * - route-announcer.ts: each new page announced to screen readers, focus moved to it;
 * - react-router-adapter.ts: all that needs React Router's internals, React Router's prefetch plan included;
 * - react-router-links.tsx: the app's `Link` and `NavLink`, their `prefetch` prop handed to the queue.
 */

const queue = new PrefetchQueue(PREFETCH_CONCURRENCY);
const dataCache = new PageDataCache();
const navigationData = new NavigationData();
let internals: RouterInternals | undefined;
let announcer: RouteAnnouncer | undefined;
let nativeFetch: typeof fetch = (...args) => fetch(...args);
let gate: ((go: Go, request: NavigationRequest) => Promise<void>) | undefined;

/**
 * Called once, by navigation-client.ts, after hydration, with the pathname shown. Throws when the page was
 * not hydrated by React Router's HydratedRouter (then React Router's defaults apply). Link prefetching
 * starts with `startPrefetching`, once navigations started before this have passed the gate.
 */
export function installNavigation(shownPath: string, announcerRegionId: string): void {
  const hydrated = hydratedRouter();
  if (!hydrated) throw new Error("No hydrated React Router router in the page");
  internals = hydrated;
  announcer = new RouteAnnouncer(shownPath, announcerRegionId);
  markLoaded(loadedAssetUrls(hydrated));
  const staleTimeOf = (page: string) => prefetchStaleTime(leafRouteId(hydrated, page));
  nativeFetch = interceptFetch(
    pageDataFetch({
      router: hydrated.router,
      queue,
      cache: dataCache,
      ahead: navigationData,
      staleTimeOf,
      routeOf: (page) => matchedRoute(matchedRouteIds(hydrated, page)),
    }),
  );
  gate = createNavigationGate(hydrated, queue, codeForNavigation, dataAhead);
}

/**
 * The route code a navigation needs, asked by the gate as the navigation starts. A page that shows a date has the
 * time-zone set-up's module among its code (visitor/zone-worker.ts): unless done already, the set-up starts now,
 * off the main thread, while its code and data are on the network; else its render made the browser's first
 * `Intl.DateTimeFormat` itself, 130 ms of a phone's CPU (Chromium's 4x slowdown) on a tap that came before the
 * link's prefetch (packages/edge-platform/docs/PERFORMANCE.md, "Taps at three moments").
 */
function codeForNavigation(target: URL): { modules: string[]; styles: string[] } {
  if (internals && routeCodeFor(internals, target).modules.includes(zoneWorkerModule())) {
    // After the gate has asked for the code: making the worker takes 15 ms of that CPU on the main thread.
    setTimeout(() => zoneOffMainThread({ now: true }), 0);
  }
  return routeCode(target);
}

/** A navigation asked of the router as a link would (navigation-client.ts, a tap while React hydrated). */
export function navigateTo(href: string): void {
  void internals?.router.navigate(href);
}

/** Starts prefetching the document's links (link-prefetch.ts), unless the browser asks to save data. */
export function startPrefetching(): void {
  if (!savesData()) new LinkPrefetcher((href, { ahead }) => prefetchPage(href, ahead)).start();
}

/** The gate (navigation-gate.ts), for each navigation navigation-client.ts's instrumentation sees. */
export async function gateNavigation(go: Go, request: NavigationRequest): Promise<void> {
  if (gate) await gate(go, request);
  else await go();
}

/** After a render showing `pathname`: announces another page and moves focus to it. */
export function pageShown(pathname: string, navigationType: NavigationType): void {
  announcer?.pageShown(pathname, navigationType);
}

/**
 * Prefetches what a navigation to `href` would need (packages/edge-platform/docs/contract.md C5), as React
 * Router would plan it (react-router-adapter.ts). Does nothing off-origin or to save data. `ahead` (intent on
 * a link): its requests go to the front of the queue.
 */
export function prefetchPage(href: string, ahead = false): void {
  if (!internals || savesData()) return;
  const target = new URL(href, window.location.href);
  if (target.origin !== window.location.origin) return;
  // A navigation holds the queue: its prefetches are planned once it is done (matching each link's routes
  // took 1-2 ms of a phone's CPU per link, Chromium's 4x slowdown, while the tapped page's data came in), from
  // the page it shows. Intent goes on at once: its requests still wait for the queue.
  if (queue.held && !ahead) {
    queue.whenReleased(() => prefetchPage(href));
    return;
  }
  const { modules, styles } = routeCode(target);
  const code = modules.map((url) => queue.enqueue(url, () => preloadModule(url)));
  // Once its code is here, the page's route modules are run and handed to React Router, so that a click
  // needs no import of its own (navigation-gate.ts says why that matters).
  const hydrated = internals;
  Promise.all(code).then(() => importRouteModules(hydrated, target.pathname), ignore);
  for (const url of styles) queue.enqueue(url, () => loadStyle(url, "low")).catch(ignore);
  const requests = [...modules, ...styles];
  // Dynamic pages (stale time 0) get their code warmed, never their data: it would be stale on arrival.
  const staleTime = prefetchStaleTime(leafRouteId(internals, target.pathname));
  const dataUrl = staleTime > 0 ? pageDataUrlFor(internals, target) : undefined;
  if (dataUrl !== undefined) {
    const key = pageDataKey(new URL(dataUrl, window.location.href));
    // Data a navigation is fetching right now is not asked for again: it lands in the cache (page-data.ts).
    if (!dataCache.isFresh(key) && !dataCache.isLoading(key)) {
      queue
        .enqueue(key, () => prefetchPageData(nativeFetch, dataCache, { dataUrl, key, staleTime }))
        .catch(ignore);
    }
    requests.push(key);
  }
  if (ahead) queue.moveAhead(requests);
}

/**
 * The page data a navigation to `target` will ask for, asked for now (navigation-gate.ts), unless it is at
 * hand or on its way already. Dynamic pages' too: it is for this navigation, not for later. Through the
 * page's `fetch`, so that error reporting's instrumentation gives it the navigation's trace headers (our
 * own interception passes it through: React Router has not started the navigation yet). A route whose
 * `shouldRevalidate` throws gets nothing ahead: React Router reports that when it runs it. What it returns
 * says when the data is here, for the gate to wait for (nothing to wait for when it is at hand).
 */
function dataAhead(target: URL): ReturnType<DataAhead> {
  if (!internals) return NOTHING_AHEAD;
  let dataUrl: string | undefined;
  try {
    dataUrl = pageDataUrlFor(internals, target);
  } catch {
    return NOTHING_AHEAD;
  }
  if (dataUrl === undefined) return NOTHING_AHEAD;
  const key = pageDataKey(new URL(dataUrl, window.location.href));
  if (queue.has(key)) {
    // A prefetch of it is waiting in the queue, or running: it starts now if it waits, and React Router's
    // request joins it.
    const prefetched = queue.promote(key)?.catch(ignore);
    return { received: prefetched, drop: ignore };
  }
  if (dataCache.isFresh(key) || dataCache.isLoading(key)) return NOTHING_AHEAD;
  const url = dataUrl;
  return navigationData.start(key, () => window.fetch(url, { credentials: "same-origin", priority: "high" }));
}

const NOTHING_AHEAD: ReturnType<DataAhead> = { received: undefined, drop: ignore };

/** The route code a navigation to `target` needs that the page has not loaded. */
function routeCode(target: URL): { modules: string[]; styles: string[] } {
  if (!internals) return { modules: [], styles: [] };
  const { modules, styles } = routeCodeFor(internals, target);
  return { modules: modules.filter((url) => !isLoaded(url)), styles: styles.filter((url) => !isLoaded(url)) };
}

function ignore(): void {}
