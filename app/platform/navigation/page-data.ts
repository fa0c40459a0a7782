import { PREFETCH_STALE_MS_DYNAMIC, PREFETCH_STALE_MS_STATIC } from "../constants";
import { isStaticPage } from "../static-pages";

/**
 * The URL of a page's data, as React Router's single fetch names it (`/` -> `/_root.data`,
 * `/about` -> `/about.data`; the `_routes` query it may add does not change which page it is).
 * Must follow `future.v8_trailingSlashAwareDataRequests` if that flag is turned on (decision 002).
 */
export function pageDataPath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return trimmed === "/" ? "/_root.data" : `${trimmed}.data`;
}

/** The page a data URL is for, or undefined when the URL is not page data. */
export function pageOfDataPath(dataPath: string): string | undefined {
  if (dataPath === "/_root.data") return "/";
  return dataPath.endsWith(".data") ? dataPath.slice(0, -".data".length) : undefined;
}

/** SPEC C5: how long a page's prefetched data may be used instead of a new request. */
export function prefetchStaleTime(pathname: string): number {
  return isStaticPage(pathname) ? PREFETCH_STALE_MS_STATIC : PREFETCH_STALE_MS_DYNAMIC;
}
