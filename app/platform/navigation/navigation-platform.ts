import type { ContextType } from "react";
import {
  type UNSAFE_AssetsManifest as AssetsManifest,
  createPath,
  matchRoutes,
  type UNSAFE_RouteModules as RouteModules,
  type To,
  type UNSAFE_DataRouterContext,
} from "react-router";
import { PREFETCH_CONCURRENCY, ROUTE_LOADING_TIMEOUT_MS } from "../constants";
import { PageDataCache, toResponse } from "../prefetch/page-data-cache";
import { PrefetchQueue } from "../prefetch/prefetch-queue";
import { isLoaded, markLoaded, preloadModule, preloadStyle } from "../prefetch/preload";
import { pageDataPath, pageOfDataPath, prefetchStaleTime } from "./page-data";

/**
 * SPEC C2-C5 and C9 in the browser, on top of React Router:
 * - prefetch: one bounded queue (5 at once) for route modules, their CSS and static pages' data;
 * - page data: a fetch wrapper serves fresh prefetched data of static pages without a request, and turns
 *   a navigation whose data cannot be fetched into a full browser navigation to its target;
 * - route code: a navigation first loads the target's modules (promoting their prefetches); slower than
 *   3800 ms, or failing, it becomes a full browser navigation to the target (React Router alone would
 *   reload the page being left).
 */

type DataRouter = NonNullable<ContextType<typeof UNSAFE_DataRouterContext>>["router"];
export type NavigationPlatformParts = {
  router: DataRouter;
  manifest: AssetsManifest;
  routeModules: RouteModules;
};
type NavigationKind = "push" | "replace" | "pop";

const queue = new PrefetchQueue(PREFETCH_CONCURRENCY);
const dataCache = new PageDataCache();
let parts: NavigationPlatformParts | undefined;
let nativeFetch: typeof fetch = (...args) => fetch(...args);
/** Whether the navigation being started replaces the history entry (React Router does not expose it). */
let pendingKind: "push" | "replace" = "push";

/** Called once, by navigation-client.ts, as the app hydrates. */
export function installNavigationPlatform(next: NavigationPlatformParts): void {
  parts = next;
  const { manifest, routeModules } = next;
  markLoaded([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of Object.keys(routeModules)) {
    const route = manifest.routes[id];
    if (route) markLoaded([route.module, ...(route.imports ?? []), ...(route.css ?? [])]);
  }
  nativeFetch = window.fetch.bind(window);
  window.fetch = pageAwareFetch;
  wrapNavigate(next.router);
}

/** Prefetches what a navigation to `href` would need (SPEC C5). Does nothing off-origin or to save data. */
export function prefetchPage(href: string): void {
  if (!parts || savesData()) return;
  const target = new URL(href, window.location.href);
  if (target.origin !== window.location.origin) return;
  const { modules, styles, hasData } = routeResources(target);
  for (const url of modules) queue.enqueue(url, () => preloadModule(url)).catch(ignore);
  for (const url of styles) queue.enqueue(url, () => preloadStyle(url)).catch(ignore);
  const staleTime = prefetchStaleTime(target.pathname);
  const dataPath = pageDataPath(target.pathname);
  // Dynamic pages (stale time 0) get their code warmed, never their data: it would be stale on arrival.
  if (hasData && staleTime > 0 && !dataCache.isFresh(dataPath)) {
    queue.enqueue(dataPath, () => prefetchData(dataPath, staleTime)).catch(ignore);
  }
}

function routeResources(target: URL) {
  const modules: string[] = [];
  const styles: string[] = [];
  let hasData = false;
  if (!parts) return { modules, styles, hasData };
  for (const { route } of matchRoutes(parts.router.routes, target.pathname) ?? []) {
    const entry = parts.manifest.routes[route.id];
    if (!entry) continue;
    hasData ||= entry.hasLoader;
    for (const url of [entry.module, ...(entry.imports ?? [])]) if (!isLoaded(url)) modules.push(url);
    for (const url of entry.css ?? []) if (!isLoaded(url)) styles.push(url);
  }
  return { modules: [...new Set(modules)], styles: [...new Set(styles)], hasData };
}

async function prefetchData(dataPath: string, staleTime: number): Promise<void> {
  const response = await nativeFetch(dataPath, { credentials: "same-origin", priority: "low" });
  const body = await response.arrayBuffer();
  if (response.status !== 200 || new Uint8Array(body)[0] !== OPENING_BRACKET) {
    throw new Error(`Not page data: ${dataPath} (${response.status})`);
  }
  dataCache.set(dataPath, { status: response.status, headers: [...response.headers], body }, staleTime);
}

/** Page data is a turbo-stream, which always opens with `[`. */
const OPENING_BRACKET = 0x5b;

async function pageAwareFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request?.url ?? String(input), window.location.href);
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
  const page =
    url.origin === window.location.origin && method === "GET" ? pageOfDataPath(url.pathname) : undefined;
  if (page === undefined) return nativeFetch(input, init);

  const dataPath = url.pathname;
  if (queue.has(dataPath)) await queue.promote(dataPath)?.catch(ignore);
  const cached = dataCache.getFresh(dataPath);
  if (cached) return toResponse(cached);

  const navigation = navigationTo(page);
  let response: Response;
  try {
    response = await nativeFetch(input, init);
  } catch (error) {
    if (navigation) return navigateFully(navigation);
    throw error;
  }
  if (!navigation) return response;
  return (await asPageData(response)) ?? navigateFully(navigation);
}

/**
 * The response as page data, or undefined when it is something else: an error page that is not the
 * app's (no `X-Remix-Response`), or a body that is not a turbo-stream (peeked without losing streaming).
 */
async function asPageData(response: Response): Promise<Response | undefined> {
  if (response.status >= 400) return response.headers.has("X-Remix-Response") ? response : undefined;
  if (!response.body || response.status === 204 || response.status === 304) return response;
  const reader = response.body.getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  do {
    first = await reader.read();
  } while (!first.done && first.value.byteLength === 0);
  if (first.done || first.value[0] !== OPENING_BRACKET) {
    await reader.cancel().catch(ignore);
    return undefined;
  }
  const head = first.value;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The navigation now loading `page`, if there is one (fetchers and revalidations are not navigations). */
function navigationTo(page: string): { href: string; kind: NavigationKind } | undefined {
  if (!parts) return undefined;
  const { navigation, location } = parts.router.state;
  if (navigation.state !== "loading" || navigation.formMethod || !navigation.location) return undefined;
  const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path);
  if (trim(navigation.location.pathname) !== trim(page)) return undefined;
  // Back/forward have already moved the browser's history entry; push and replace have not yet.
  const historyKey = (window.history.state as { key?: string } | null)?.key;
  const kind: NavigationKind = historyKey !== undefined && historyKey !== location.key ? "pop" : pendingKind;
  return { href: createPath(navigation.location), kind };
}

/** Leaves the client navigation for a full browser navigation to its target; the page is unloading. */
function navigateFully({ href, kind }: { href: string; kind: NavigationKind }): Promise<never> {
  if (kind === "replace") window.location.replace(href);
  else if (kind === "pop") window.location.reload();
  else window.location.assign(href);
  return new Promise<never>(() => {});
}

/**
 * React Router's navigation instrumentation neither tells whether a navigation replaces nor lets the
 * route's code be loaded first, so `router.navigate` is wrapped once, when the app hydrates.
 */
function wrapNavigate(router: DataRouter): void {
  const navigate = router.navigate.bind(router) as (
    to: To | number | null,
    options?: NavigateOptions,
  ) => Promise<void>;
  const navigateFirst = async (to: To | number | null, options?: NavigateOptions): Promise<void> => {
    pendingKind = options?.replace ? "replace" : "push";
    const isSubmission = options?.formMethod !== undefined && options.formMethod.toUpperCase() !== "GET";
    if (typeof to !== "number" && !isSubmission) {
      const target = resolveTarget(to);
      if (target.origin === window.location.origin && !(await loadRouteCode(target))) {
        return navigateFully({ href: target.pathname + target.search + target.hash, kind: pendingKind });
      }
    }
    return navigate(to, options);
  };
  router.navigate = navigateFirst as DataRouter["navigate"];
}

type NavigateOptions = { replace?: boolean; formMethod?: string };

/** Loads the target's route code, promoting queued prefetches; false when it failed or took too long. */
async function loadRouteCode(target: URL): Promise<boolean> {
  const { modules, styles } = routeResources(target);
  if (modules.length === 0 && styles.length === 0) return true;
  const loads = [
    ...modules.map((url) => queue.promote(url) ?? preloadModule(url)),
    ...styles.map((url) => queue.promote(url) ?? preloadStyle(url)),
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

function resolveTarget(to: To | null): URL {
  if (to === null) return new URL(window.location.href);
  if (typeof to === "string") return new URL(to, window.location.href);
  return new URL(
    createPath({ pathname: to.pathname ?? window.location.pathname, search: to.search, hash: to.hash }),
    window.location.href,
  );
}

function savesData(): boolean {
  const connection = (
    navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }
  ).connection;
  return connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? "");
}

function ignore(): void {}
