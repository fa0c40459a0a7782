import {
  type UNSAFE_AssetsManifest as AssetsManifest,
  createPath,
  type DataRouteMatch,
  type DataRouter,
  matchRoutes,
  type UNSAFE_RouteModules as RouteModules,
} from "react-router";
import { pageDataUrl } from "../single-fetch";
import { memoize } from "../visitor/memo";

/**
 * Everything the navigation code knows about React Router beyond its public API, in one place
 * (packages/edge-platform/docs/decisions/008-navigation-adapter.md): no other module of navigation/ reads
 * the router object's fields, the route manifest, the route-module cache, React Router's `window` globals or
 * its single-fetch answers. Each assumption below has a test named after it in
 * packages/edge-platform/tests/unit/react-router-assumptions.test.ts, against the installed React Router
 * (where only a browser can show it, also the browser test named in its comment), so a React Router upgrade
 * that breaks one fails that test instead of breaking navigation quietly. This module is loaded with the
 * navigation code, after hydration: none of it is in the first-load JavaScript.
 */

/** The router HydratedRouter made, the route manifest and the route-module cache its routes load through. */
export type RouterInternals = {
  router: DataRouter;
  manifest: AssetsManifest;
  routeModules: RouteModules;
};

type ReactRouterGlobals = {
  __reactRouterDataRouter?: DataRouter;
  __reactRouterManifest?: AssetsManifest;
  __reactRouterRouteModules?: RouteModules;
};

/**
 * Assumption "HydratedRouter leaves its router, manifest and route modules on window": the same objects its
 * framework context holds (the route modules are the cache its routes load through). Undefined when the
 * page was not hydrated by HydratedRouter.
 */
export function hydratedRouter(): RouterInternals | undefined {
  const {
    __reactRouterDataRouter: router,
    __reactRouterManifest: manifest,
    __reactRouterRouteModules: routeModules,
  } = window as ReactRouterGlobals;
  return router && manifest && routeModules ? { router, manifest, routeModules } : undefined;
}

/**
 * A route's code as the framework's manifest lists it: its modules in the order React Router preloads them
 * (`getModuleLinkHrefs`: the module, its split client action and loader, its imports) and its CSS.
 * Assumption "manifest routes list module, imports and css" (the built manifest: tests/platform/react-router-manifest.test.ts).
 */
export function routeAssets(
  manifest: AssetsManifest,
  routeId: string,
): { modules: string[]; styles: string[] } | undefined {
  const entry = manifest.routes[routeId];
  if (!entry) return undefined;
  const split = [entry.clientActionModule, entry.clientLoaderModule].filter((url) => url !== undefined);
  return { modules: [entry.module, ...split, ...(entry.imports ?? [])], styles: [...(entry.css ?? [])] };
}

/** Every URL the document already loaded: the entry, its imports and the hydrated routes' code. */
export function loadedAssetUrls({ manifest, routeModules }: RouterInternals): string[] {
  const urls = [manifest.entry.module, ...manifest.entry.imports];
  for (const id of Object.keys(routeModules)) {
    const assets = routeAssets(manifest, id);
    if (assets) urls.push(...assets.modules, ...assets.styles);
  }
  return urls;
}

/*
 * What a navigation from the page shown to a target needs, by React Router's own prefetch rules, as its
 * `PrefetchPageLinks` applies them (7.x: `getNewMatchesForLinks`, `getModuleLinkHrefs` and its data href).
 * Assumption "the prefetch plan is React Router's": what PrefetchPageLinks renders for the same target, and
 * the URL the navigation then requests.
 */

/**
 * The code of the routes the target does not share with the page shown: those that are new or whose params
 * changed (their modules, split client modules and imports, and their CSS).
 */
export function routeCodeFor(
  internals: RouterInternals,
  target: URL,
): { modules: string[]; styles: string[] } {
  const { next, current } = matchesFor(internals, target);
  const modules = new Set<string>();
  const styles = new Set<string>();
  next.forEach((match, index) => {
    if (!isNewMatch(match, current[index])) return;
    const assets = routeAssets(internals.manifest, match.route.id);
    for (const url of assets?.modules ?? []) modules.add(url);
    for (const url of assets?.styles ?? []) styles.add(url);
  });
  return { modules: [...modules], styles: [...styles] };
}

/**
 * The URL of the target's page data, as the navigation will ask for it, or undefined when it has none to
 * fetch: none for the page shown itself; else the loaders a navigation runs, new routes and the others unless
 * their `shouldRevalidate` says no. A route that opts out (`shouldRevalidate` false, or a `clientLoader`,
 * which asks for its own data) is left out, and then `_routes` names those that run.
 */
export function pageDataUrlFor(internals: RouterInternals, target: URL): string | undefined {
  const { router, manifest, routeModules } = internals;
  const { next, current, page } = matchesFor(internals, target);
  const { location, loaderData } = router.state;
  const shown = location.pathname + location.search + location.hash;
  if (page === shown) return undefined;
  const origin = window.location.origin;
  const revalidates = (match: DataRouteMatch, index: number): boolean => {
    if (isNewMatch(match, current[index])) return true;
    const choice = match.route.shouldRevalidate?.({
      currentUrl: new URL(shown, origin),
      currentParams: current[0]?.params ?? {},
      nextUrl: new URL(page, origin),
      nextParams: match.params,
      defaultShouldRevalidate: true,
    });
    return typeof choice === "boolean" ? choice : true;
  };
  const loading: string[] = [];
  let optedOut = false;
  next.forEach((match, index) => {
    const id = match.route.id;
    const entry = manifest.routes[id];
    if (!entry?.hasLoader) return;
    if (!revalidates(match, index) && id in loaderData && routeModules[id]?.shouldRevalidate) optedOut = true;
    else if (entry.hasClientLoader) optedOut = true;
    else loading.push(id);
  });
  if (loading.length === 0) return undefined;
  return pageDataUrl(new URL(page, origin), optedOut ? loading : undefined, router.basename);
}

function matchesFor({ router }: RouterInternals, target: URL) {
  const page = target.pathname + target.search + target.hash;
  return { page, next: routeMatches(router, target.pathname), current: router.state.matches };
}

/**
 * React Router's `matchRoutes` for a path of this router's routes, remembered by path (visitor/memo.ts): each
 * call flattens and ranks every route and compiles their patterns again, and the navigation code asks it about
 * the same few paths again and again (each link's code, data and stale time when it is prefetched, then again
 * when it is clicked). On the reference product's `/`, on a 4x slower CPU, that was about 50 ms of the main
 * thread in each load (packages/edge-platform/docs/PERFORMANCE.md, "What a tap costs"). The routes do not
 * change once hydrated (route discovery "initial": src/vite/react-router-config.ts); a router whose routes
 * were replaced gets a new memo.
 */
function routeMatches(router: DataRouter, pathname: string): DataRouteMatch[] {
  let matches = matchesByRoutes.get(router.routes);
  if (!matches) {
    const { routes, basename } = router;
    matches = memoize(REMEMBERED_PATHS, (path) => matchRoutes(routes, path, basename) ?? []);
    matchesByRoutes.set(routes, matches);
  }
  return matches(pathname);
}
const matchesByRoutes = new WeakMap<DataRouter["routes"], (pathname: string) => DataRouteMatch[]>();
/** More paths than a page links to, so that a page's links are matched once each. */
const REMEMBERED_PATHS = 200;

/** A match the page shown does not have: another route at its depth, other params, another splat. */
function isNewMatch(match: DataRouteMatch, shown: DataRouteMatch | undefined): boolean {
  if (!shown || shown.route.id !== match.route.id) return true;
  return (
    shown.pathname !== match.pathname ||
    (shown.route.path?.endsWith("*") === true && shown.params["*"] !== match.params["*"])
  );
}

/** The ids of the routes `pathname` matches, root first (what a route's name is made of). */
export function matchedRouteIds({ router }: RouterInternals, pathname: string): string[] {
  return routeMatches(router, pathname).map(({ route }) => route.id);
}

/** The deepest route `pathname` matches (which tells whether the page is static). */
export function leafRouteId({ router }: RouterInternals, pathname: string): string | undefined {
  return routeMatches(router, pathname).at(-1)?.route.id;
}

/**
 * Runs the modules of the routes `pathname` matches that React Router has not loaded, and puts them where
 * it looks for them. Assumption "a route module in the route-module cache is used as is": React Router's
 * route loading reads the cache first, with no `import()` of its own (which resumes in a later task). A
 * module that fails to run is left to React Router, which imports it again and reloads the page when that
 * fails too. Shown in the browser by packages/edge-platform/tests/platform/browser/link-prefetch.spec.ts,
 * "a click to a prefetched static page is one render".
 */
export async function importRouteModules(
  { router, manifest, routeModules }: RouterInternals,
  pathname: string,
): Promise<void> {
  const missing = missingRoutes({ router, manifest, routeModules }, pathname);
  await Promise.all(
    missing.map(async ({ id, url }) => {
      try {
        routeModules[id] = await import(/* @vite-ignore */ url);
      } catch {}
    }),
  );
}

/**
 * Makes React Router wait for good for the route modules of `pathname` it has not loaded: it neither
 * imports them nor, when that fails, reloads the page being left. For a navigation that is about to become
 * a full browser navigation. Assumption "a pending route module in the cache holds the navigation": it
 * stays loading, its history step (push, replace) readable.
 */
export function holdRouteModules(internals: RouterInternals, pathname: string): void {
  for (const { id } of missingRoutes(internals, pathname)) {
    internals.routeModules[id] = new Promise<never>(() => {}) as unknown as RouteModules[string];
  }
}

function missingRoutes({ router, manifest, routeModules }: RouterInternals, pathname: string) {
  return routeMatches(router, pathname).flatMap(({ route }) => {
    const entry = manifest.routes[route.id];
    return entry && !(route.id in routeModules) ? [{ id: route.id, url: entry.module }] : [];
  });
}

/**
 * packages/edge-platform/docs/contract.md C3, C4, C9: leaving a client navigation for a full browser
 * navigation to its target, the same kind of history step the client navigation was taking.
 */
export type FullNavigation = { href: string; kind: "push" | "replace" | "pop" };

/**
 * The navigation now loading `page`, if there is one: fetchers, revalidations and submissions are not
 * navigations to fall back from. Read from the router's state (`navigation.historyAction`, public API
 * checked with the assumptions).
 */
export function navigationLoading(router: DataRouter, page: string): FullNavigation | undefined {
  const { navigation } = router.state;
  if (navigation.state !== "loading" || navigation.formMethod || !navigation.location) return undefined;
  if (trimSlashes(navigation.location.pathname) !== trimSlashes(page)) return undefined;
  const kind =
    navigation.historyAction === "POP" ? "pop" : navigation.historyAction === "REPLACE" ? "replace" : "push";
  return { href: createPath(navigation.location), kind };
}

/** `navigationLoading(router, page)` once React Router has started that navigation; undefined if it has not within a task. */
export function navigationStarted(router: DataRouter, page: string): Promise<FullNavigation | undefined> {
  return new Promise((resolve) => {
    const now = navigationLoading(router, page);
    if (now) return resolve(now);
    const stop = router.subscribe(() => {
      const started = navigationLoading(router, page);
      if (started) finish(started);
    });
    const timer = setTimeout(() => finish(undefined), 0);
    function finish(result: FullNavigation | undefined) {
      stop();
      clearTimeout(timer);
      resolve(result);
    }
  });
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/**
 * How a route's stylesheet is loaded ahead of its page: a stylesheet link whose media matches nothing, so it
 * applies to no page, raises no Chromium "preloaded but not used" warning, and puts the parsed sheet in the
 * browser's memory cache, where React Router's own stylesheet link of the new page finds it. Assumption
 * "React Router adds no style preload for a stylesheet already linked": before it commits a route it inserts
 * a `<link rel=preload as=style>` for each of the route's stylesheets and waits for its load event, unless a
 * `link[rel=stylesheet]` with that href is in the document (`prefetchStyleLink`). With this link there, a
 * prefetched page's CSS costs the click no load event to wait for, which on a busy main thread is a task or
 * more, with React's "loading" render in between. In the browser:
 * packages/edge-platform/tests/platform/browser/link-prefetch.spec.ts, "a click to a prefetched static page
 * waits for no stylesheet".
 */
export const STYLESHEET_AHEAD = { rel: "stylesheet", media: "not all" } as const;

/**
 * Puts `intercept` in front of the page's `fetch`, with the original to call on. Assumption "single fetch
 * requests page data through the global fetch, looked up at call time" (tested in the browser by
 * packages/edge-platform/tests/platform/browser/navigation.spec.ts, "page data that cannot be fetched becomes a full navigation").
 */
export function interceptFetch(
  intercept: (nativeFetch: typeof fetch, input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
): typeof fetch {
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input, init) => intercept(nativeFetch, input, init);
  return nativeFetch;
}

/**
 * Whether React Router cancelled this page-data request. Assumption "a superseded navigation's page-data
 * request is aborted through the signal single fetch hands fetch": a new navigation, back/forward or a
 * restarted load while one is loading aborts it. Shown in the browser by
 * packages/edge-platform/tests/platform/browser/navigation.spec.ts, "the click the visitor made last wins".
 */
export function cancelledByRouter(input: RequestInfo | URL, init?: RequestInit): boolean {
  return (init?.signal ?? (input instanceof Request ? input.signal : undefined))?.aborted === true;
}

/** Assumption "single-fetch bodies are turbo-streams, which open with `[`". */
export function opensLikePageData(firstByte: number | undefined): boolean {
  return firstByte === OPENING_BRACKET;
}

const OPENING_BRACKET = 0x5b;

/**
 * Assumption "the app's own error answers to data requests carry X-Remix-Response": an error status
 * without it comes from something in between (a proxy, a captive portal), not from the app.
 */
export function isAppDataResponse(response: Response): boolean {
  return response.headers.has("X-Remix-Response");
}
