/**
 * React Router's single-fetch URLs, in one place for the Worker and the browser: a page's data is asked for
 * at `<page>.data` (`/_root.data` for the root), optionally with `_routes=<id>,<id>` naming the routes whose
 * loaders to run. Read as React Router's server reads them (`getNormalizedPath`, 7.x, with
 * `future.v8_trailingSlashAwareDataRequests` off: decision 002 says why): `/a.data` and `/a/.data` are both
 * `/a`'s data. Its assumption tests: tests/unit/single-fetch.test.ts, and in Chromium the navigation specs,
 * whose page data the browser asks for at these URLs.
 */

const DATA_SUFFIX = ".data";
const ROOT_DATA = "_root.data";

/** Whether a path asks for page data rather than a document. */
export function isPageDataPath(pathname: string): boolean {
  return pathname.endsWith(DATA_SUFFIX);
}

/** The page a data path belongs to (`/_root.data` -> `/`, `/a/b.data` -> `/a/b`), or undefined for a document's path. */
export function pageOfDataPath(pathname: string, basename = "/"): string | undefined {
  if (!isPageDataPath(pathname)) return undefined;
  const base = basename.replace(/\/+$/, "");
  if (pathname.toLowerCase() === `${base}/${ROOT_DATA}`.toLowerCase()) return base || "/";
  const page = pathname.slice(0, -DATA_SUFFIX.length);
  return page.length > 1 && page.endsWith("/") ? page.slice(0, -1) : page || "/";
}

/** The page a request's path is about: its own path for a document, the page it is the data of for page data. */
export function pageOfPath(pathname: string): string {
  const page = pageOfDataPath(pathname) ?? pathname;
  return page.length > 1 && page.endsWith("/") ? page.slice(0, -1) : page;
}

/** The data path React Router's browser code asks for, for a page's path (trailing slashes dropped). */
export function pageDataPath(page: string, basename = "/"): string {
  const base = basename.replace(/\/+$/, "");
  const trimmed = page.length > 1 ? page.replace(/\/+$/, "") : page;
  return trimmed === (base || "/") ? `${base}/${ROOT_DATA}` : `${trimmed}${DATA_SUFFIX}`;
}

/**
 * The URL (path and query) React Router's browser code fetches a page's data from, for the page's URL: its
 * data path, the page's query without empty `index` parameters, and `_routes` when only `routeIds`' loaders
 * are to run (`singleFetchUrl`, `stripIndexParam` and `fetchAndDecodeViaTurboStream`, 7.x). Built with the
 * same URL operations, so it is the same string as the browser's request, byte for byte.
 */
export function pageDataUrl(page: URL, routeIds?: readonly string[], basename = "/"): string {
  const url = new URL(page.href);
  url.pathname = pageDataPath(url.pathname, basename);
  const index = url.searchParams.getAll("index");
  url.searchParams.delete("index");
  for (const value of index) if (value) url.searchParams.append("index", value);
  if (routeIds) url.searchParams.set("_routes", routeIds.join(","));
  return url.pathname + url.search;
}

/**
 * The route ids a data request names in `_routes` (only those loaders run), or undefined when it names none
 * (the whole page's data). Not data: undefined.
 */
export function requestedRouteIds(url: URL): string[] | undefined {
  if (!isPageDataPath(url.pathname)) return undefined;
  const listed = url.searchParams.get("_routes");
  return listed ? listed.split(",") : undefined;
}
