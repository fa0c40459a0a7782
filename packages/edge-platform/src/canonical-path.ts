/**
 * One page, one address (packages/edge-platform/docs/caching.md, "One page, one key"). React Router matches a path against its
 * routes case-insensitively (unless a route is `caseSensitive`), after percent-decoding each segment and
 * ignoring trailing slashes, so `/Messages/Latest/`, `/messages/lat%65st` and `/messages/latest` render the
 * same page. A cache keyed by the URL (Cloudflare's Workers Cache) would hold a copy per spelling, and a purge
 * by path would miss all but one. The Worker sends every other spelling to the one this module computes.
 *
 * The canonical spelling of a matched path is what React Router's own `generatePath` writes for the matched
 * routes and the params it decoded: each static segment as the route declares it, each dynamic value through
 * `encodeURIComponent` (a splat: each of its `/`-separated pieces), no trailing slash (the pre-rendered pages'
 * assets drop it too: `html_handling = "drop-trailing-slash"`). `encodeURIComponent`'s output is left as it
 * is by every URL parser (it never decodes an escape, and never escapes what it leaves), so the spelling
 * survives the redirect unchanged: no loop. Everything here is a pure function of the route tree.
 */
import { matchRoutes, type RouteMatch, type RouteObject } from "react-router";
import { pageDataPath, pageOfDataPath } from "./single-fetch";

/** A route path's dynamic segment (`:id`, `:lang?`, `:id.json`) and optional static one (`en?`). */
const DYNAMIC_SEGMENT = /^:([\w-]+)(\?)?(.*)$/;
const OPTIONAL_STATIC_SEGMENT = /^[\w-]+\?$/;

/** What this module reads of a server build's route manifest (`serverBuild.routes`). */
export type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
};

/**
 * The manifest as the route tree React Router's server matches against: children grouped under their parent
 * in the manifest's order (React Router ranks siblings of equal score by that order, so the same route wins).
 */
export function routeTree(manifest: Readonly<Record<string, ManifestRoute | undefined>>): RouteObject[] {
  const byParent = new Map<string, ManifestRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const parentId = route.parentId ?? "";
    const siblings = byParent.get(parentId) ?? [];
    siblings.push(route);
    byParent.set(parentId, siblings);
  }
  function children(parentId: string): RouteObject[] {
    return (byParent.get(parentId) ?? []).map((route): RouteObject => {
      const common = { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
      return route.index ? { ...common, index: true } : { ...common, children: children(route.id) };
    });
  }
  return children("");
}

/** A page's canonical spelling and the route that renders it (the last of the matched routes). */
type CanonicalPage = { path: string; routeId: string };

/**
 * The canonical spelling of `pathname` (as a URL's `pathname` holds it: percent-encoded) and its route, or
 * `undefined` when no route matches it (a 404 keeps its own spelling) or its spelling cannot be decided with
 * certainty (then it is left as it is, as before).
 */
function canonicalPage(routes: RouteObject[], pathname: string, basename: string): CanonicalPage | undefined {
  // React Router matches a path it cannot decode as it is (and warns): a bug or a probe, not a spelling.
  if (decoded(pathname) === undefined) return undefined;
  const matches = matchRoutes(routes, pathname, basename);
  const routeId = matches?.at(-1)?.route.id;
  if (!matches || routeId === undefined) return undefined;
  const candidate = spelledPath(matches, basename);
  if (candidate === undefined) return undefined;
  if (candidate === pathname) return { path: candidate, routeId };
  // The spelling must name the same routes with the same params, and be its own canonical spelling: a
  // redirect that renders another page, or that would be redirected again, is never sent.
  const again = matchRoutes(routes, candidate, basename);
  if (!again || !sameMatches(matches, again) || spelledPath(again, basename) !== candidate) return undefined;
  return { path: candidate, routeId };
}

export type CanonicalOptions = {
  /** React Router's `basename` (the server build's). */
  basename?: string;
  /**
   * The routes whose pages are pre-rendered. A trailing slash alone does not send one of their pages anywhere:
   * in production the assets answer it (`html_handling = "drop-trailing-slash"`: a 307 to the page), and at
   * build time React Router's pre-renderer asks the Worker for the page's HTML at `/page/`.
   */
  staticRouteIds?: ReadonlySet<string>;
};

/** Paths remembered per isolate, and the longest one remembered: memory stays bounded. */
const MAX_REMEMBERED_PATHS = 1_000;
const MAX_REMEMBERED_PATH_LENGTH = 256;

/**
 * For one build, made once per isolate: the URL (path and query, the query exactly as it came) a GET or HEAD
 * request should be sent to, or `undefined` when its path is already canonical or matches no route. Page
 * data (`/x.data`, `/_root.data` for `/`) is read as React Router's server reads it, and sent to the
 * canonical page's data URL. Matching costs React Router's route ranking on every call (it is not kept
 * between calls of `matchRoutes`), so a path that can only be canonical is told apart without it
 * (`spelledAsDeclared`), and the answers for the others are remembered.
 */
export function canonicalLocations(
  manifest: Readonly<Record<string, ManifestRoute | undefined>>,
  options: CanonicalOptions = {},
): (url: URL) => string | undefined {
  const basename = options.basename ?? "/";
  const routes = routeTree(manifest);
  const isPlain = spelledAsDeclared(manifest, basename);
  const remembered = new Map<string, CanonicalPage | undefined>();
  function canonicalOf(page: string): CanonicalPage | undefined {
    if (remembered.has(page)) return remembered.get(page);
    const canonical = canonicalPage(routes, page, basename);
    if (page.length <= MAX_REMEMBERED_PATH_LENGTH) {
      if (remembered.size >= MAX_REMEMBERED_PATHS) remembered.delete(remembered.keys().next().value ?? "");
      remembered.set(page, canonical);
    }
    return canonical;
  }
  return (url) => {
    const data = pageOfDataPath(url.pathname, basename);
    const page = data ?? url.pathname;
    if ((data === undefined || pageDataPath(page, basename) === url.pathname) && isPlain(page))
      return undefined;
    return locationOf(url, options, canonicalOf);
  };
}

function locationOf(
  url: URL,
  { basename = "/", staticRouteIds }: CanonicalOptions,
  canonicalOf: (page: string) => CanonicalPage | undefined,
): string | undefined {
  const data = pageOfDataPath(url.pathname, basename);
  const canonical = canonicalOf(data ?? url.pathname);
  if (canonical === undefined) return undefined;
  const target = data === undefined ? canonical.path : pageDataPath(canonical.path, basename);
  if (target === url.pathname) return undefined;
  const onlyTrailingSlash = data === undefined && url.pathname.replace(/\/+$/, "") === target;
  if (onlyTrailingSlash && staticRouteIds?.has(canonical.routeId)) return undefined;
  return `${target}${url.search}`;
}

/**
 * A test that is true only of paths whose canonical spelling is themselves (or that match no route): no
 * percent sign, no character `encodeURIComponent` would escape, no trailing or doubled slash, and every
 * segment that is some route's static segment in another case spelt as declared. It is false whenever it
 * cannot be sure (a basename, static segments that differ only in case, a dynamic segment with a suffix).
 */
export function spelledAsDeclared(
  manifest: Readonly<Record<string, ManifestRoute | undefined>>,
  basename = "/",
): (pathname: string) => boolean {
  const declared = new Map<string, string>();
  let usable = basename === "/" || basename === "";
  for (const route of Object.values(manifest)) {
    for (const segment of (route?.path ?? "").split("/")) {
      if (!segment || segment === "*") continue;
      if (segment.startsWith(":")) {
        if (DYNAMIC_SEGMENT.exec(segment)?.[3]) usable = false;
        continue;
      }
      const text = segment.replace(/\?$/, "");
      const known = declared.get(text.toLowerCase());
      if (!/^[\w.~-]+$/.test(text) || (known !== undefined && known !== text)) usable = false;
      declared.set(text.toLowerCase(), text);
    }
  }
  if (!usable) return () => false;
  return (pathname) => {
    if (!/^[\w.!~*'()/-]*$/.test(pathname) || pathname.includes("//")) return false;
    if (pathname.length > 1 && pathname.endsWith("/")) return false;
    return pathname
      .split("/")
      .every((segment) => (declared.get(segment.toLowerCase()) ?? segment) === segment);
  };
}

/** The path written from the matched routes' declarations and the decoded params. */
function spelledPath(matches: RouteMatch[], basename: string): string | undefined {
  const params = matches[matches.length - 1]?.params ?? {};
  const segments: string[] = [];
  // Both as React Router's flattenRoutes and matchRouteBranch keep them (pathnameBase is after the basename).
  let parentPattern = "";
  let parentBase = 0;
  for (const { route, pathnameBase } of matches) {
    const consumed = segmentCount(pathnameBase) - parentBase;
    parentBase = segmentCount(pathnameBase);
    let path = route.path ?? "";
    // An absolute child path repeats its parents' pattern, which React Router removes the same way.
    if (path.startsWith("/")) path = path.slice(parentPattern.length);
    parentPattern = `${parentPattern}/${path}`.replace(/\/\/+/g, "/");
    const own = spelledSegments(path.split("/").filter(Boolean), params, consumed);
    if (own === undefined) return undefined;
    segments.push(...own);
  }
  // An empty segment could make a path starting with `//`, which a browser reads as another host; a URL
  // parser removes `.` and `..` segments (and `%2E` ones), so a splat piece that is one cannot be written.
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return undefined;
  const base = basename.replace(/\/+$/, "");
  return segments.length === 0 ? base || "/" : `${base}/${segments.join("/")}`;
}

/**
 * One route's segments. `consumed` is how many segments of the path the route matched before any splat: it
 * tells which optional static segments (`lang?`) were present.
 */
function spelledSegments(
  pattern: string[],
  params: RouteMatch["params"],
  consumed: number,
): string[] | undefined {
  let required = 0;
  let optionalStatics = 0;
  for (const segment of pattern) {
    if (segment === "*") continue;
    const dynamic = DYNAMIC_SEGMENT.exec(segment);
    if (dynamic) {
      if (params[dynamic[1] ?? ""] !== undefined) required++;
      else if (dynamic[3]) return undefined;
    } else if (OPTIONAL_STATIC_SEGMENT.test(segment)) optionalStatics++;
    else required++;
  }
  const optionalPresent = consumed - required;
  // With several optional static segments and some present, which ones is not known: left alone.
  if (optionalPresent !== 0 && optionalPresent !== optionalStatics) return undefined;
  const spelled: string[] = [];
  for (const segment of pattern) {
    if (segment === "*") {
      const splat = params["*"];
      if (splat) spelled.push(...splat.split("/").map(encodeURIComponent));
      continue;
    }
    const dynamic = DYNAMIC_SEGMENT.exec(segment);
    if (dynamic) {
      const value = params[dynamic[1] ?? ""];
      if (value === undefined) continue;
      const suffix = staticSpelling(dynamic[3] ?? "");
      if (suffix === undefined) return undefined;
      spelled.push(encodeURIComponent(value) + suffix);
    } else if (OPTIONAL_STATIC_SEGMENT.test(segment)) {
      if (optionalPresent > 0) spelled.push(segment.slice(0, -1));
    } else {
      const text = staticSpelling(segment);
      if (text === undefined) return undefined;
      spelled.push(text);
    }
  }
  return spelled;
}

/**
 * A static segment as declared, as a URL's path holds it: most are plain words and stay as they are; other
 * characters are escaped as the URL parser escapes them (a browser following a link to the declared path).
 */
function staticSpelling(text: string): string | undefined {
  if (/^[\w.~-]*$/.test(text) && text !== "." && text !== "..") return text;
  if (/[?#%\\/]/.test(text) || text === "." || text === "..") return undefined;
  const parsed = new URL(`http://h/${text}`).pathname.slice(1);
  return parsed.includes("/") ? undefined : parsed;
}

function sameMatches(a: RouteMatch[], b: RouteMatch[]): boolean {
  if (a.length !== b.length || a.some((match, index) => match.route.id !== b[index]?.route.id)) return false;
  const paramsA = a[a.length - 1]?.params ?? {};
  const paramsB = b[b.length - 1]?.params ?? {};
  const keys = new Set([...Object.keys(paramsA), ...Object.keys(paramsB)]);
  return [...keys].every((key) => paramsA[key] === paramsB[key]);
}

/** The path decoded, `undefined` if it cannot be. */
function decoded(pathname: string): string | undefined {
  // The result is returned, not dropped: the bundler removes a call to a global it takes for pure (and
  // decodeURIComponent, which throws on a bad escape, would then never be called) when its value is unused.
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

function segmentCount(path: string): number {
  return path.split("/").filter(Boolean).length;
}
