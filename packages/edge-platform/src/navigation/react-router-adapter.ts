import {
  type UNSAFE_AssetsManifest as AssetsManifest,
  type DataRouter,
  matchRoutes,
  type UNSAFE_RouteModules as RouteModules,
  type RouterNavigateOptions,
  type To,
} from "react-router";

/**
 * Everything the navigation platform knows about React Router beyond its public API, in one place
 * (packages/edge-platform/docs/decisions/008-navigation-adapter.md). Each assumption below has a test named after it in
 * packages/edge-platform/tests/unit/react-router-assumptions.test.ts (or, where only a browser can show it, the e2e test named
 * in its comment), so a React Router upgrade that breaks one fails that test instead of breaking
 * navigation quietly. The two framework contexts are read by the hydration hook
 * (use-navigation-platform.ts), which hands their values here: keeping this module out of the first-load
 * JavaScript.
 */

/** What the hydration hook reads from `UNSAFE_DataRouterContext` and `UNSAFE_FrameworkContext`. */
export type RouterInternals = {
  router: DataRouter;
  manifest: AssetsManifest;
  routeModules: RouteModules;
};

/** A route's code as the framework's manifest lists it. */
export type RouteAssets = { modules: string[]; styles: string[]; hasLoader: boolean };

/** Assumption "manifest routes list module, imports, css and hasLoader". */
export function routeAssets(manifest: AssetsManifest, routeId: string): RouteAssets | undefined {
  const entry = manifest.routes[routeId];
  if (!entry) return undefined;
  return {
    modules: [entry.module, ...(entry.imports ?? [])],
    styles: [...(entry.css ?? [])],
    hasLoader: entry.hasLoader,
  };
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

/**
 * Runs the modules of the routes `pathname` matches that React Router has not loaded, and puts them where
 * it looks for them. Assumption "the framework context's routeModules is the cache React Router's route
 * loading reads first": a route module found there is used as is, with no `import()` of React Router's
 * own (which resumes in a later task). A module that fails to run is left to React Router, which imports
 * it again and reloads the page when that fails too. Shown in the browser by
 * packages/edge-platform/tests/platform/browser/link-prefetch.spec.ts, "a click to a prefetched static page is one render".
 */
export async function importRouteModules(
  { router, manifest, routeModules }: RouterInternals,
  pathname: string,
): Promise<void> {
  const missing = (matchRoutes(router.routes, pathname) ?? []).flatMap(({ route }) => {
    const entry = manifest.routes[route.id];
    return entry && !(route.id in routeModules) ? [{ id: route.id, url: entry.module }] : [];
  });
  await Promise.all(
    missing.map(async ({ id, url }) => {
      try {
        routeModules[id] = await import(/* @vite-ignore */ url);
      } catch {}
    }),
  );
}

export type Navigate = (to: To | number | null, options?: RouterNavigateOptions) => Promise<void>;

/**
 * Runs `intercept` in front of every `router.navigate` call, with the original to call on.
 * Assumption "router.navigate is an own, writable property that links and useNavigate call at call time"
 * (React Router's instrumentation API cannot do this: its navigate hook is not given `replace`). The
 * browser side of it is tested by packages/edge-platform/tests/platform/browser/navigation.spec.ts, "route code slower than
 * 3.8 s" and "route code answered 404".
 */
export function interceptNavigate(
  router: DataRouter,
  intercept: (navigate: Navigate, to: To | number | null, options?: RouterNavigateOptions) => Promise<void>,
): void {
  const navigate = router.navigate.bind(router) as Navigate;
  router.navigate = ((to: To | number | null, options?: RouterNavigateOptions) =>
    intercept(navigate, to, options)) as DataRouter["navigate"];
}

/**
 * Calls `listener` as React Router starts each form submission that navigates, whichever `navigate` it
 * went through. Assumption "useSubmit calls the router.navigate it rendered with": a `<Form>` rendered
 * before `interceptNavigate` (the first page's, until it renders again) submits around the interceptor;
 * the router's state still shows the submission, as a new navigation carrying its form method and
 * payload (kept through the loading after an action, so one submission is seen once). Tested in
 * packages/edge-platform/tests/unit/react-router-assumptions.test.ts and, in the browser, by
 * packages/edge-platform/tests/platform/browser/navigation.spec.ts, "a form submitted while a link's code loads".
 */
export function onSubmission(router: DataRouter, listener: () => void): void {
  let seen: unknown;
  router.subscribe(({ navigation }) => {
    if (navigation.state === "idle" || !navigation.formMethod) return;
    const payload = navigation.formData ?? navigation.json ?? navigation.text;
    if (payload === seen) return;
    seen = payload;
    listener();
  });
}

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
