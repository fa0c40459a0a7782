/**
 * The edge page cache's decisions, as pure functions (docs/decisions/017-edge-page-cache.md). The Worker's
 * glue (workers/page-cache.ts) touches the Cache API and the purge store; everything it decides is here.
 *
 * A route opts in only through its React Router `headers` export, in HTTP's own terms:
 * `Cache-Control: public, s-maxage=60, stale-while-revalidate=600` and `Cache-Tag: a,b` (Cloudflare's
 * convention). Nothing else is ever stored.
 */
import { PAGE_CACHE_NAME } from "../constants.ts";

/** What a stored page may be served for: `sMaxAge` fresh, then `staleWhileRevalidate` more while refreshed. */
export type SharedCachePolicy = { sMaxAge: number; staleWhileRevalidate: number; tags: string[] };

/** The most tags one page may name (Cloudflare's own limit per response is in the same range). */
const MAX_TAGS = 32;
const TAG_SHAPE = /^[\w.:/-]{1,128}$/;

/** `Cache-Control` as a map of lower-cased directives to their values (`true` when a directive has none). */
export function cacheControlDirectives(value: string | null): Map<string, string | true> {
  const directives = new Map<string, string | true>();
  for (const part of (value ?? "").split(",")) {
    const [name = "", ...rest] = part.split("=");
    const key = name.trim().toLowerCase();
    if (!key) continue;
    directives.set(key, rest.length > 0 ? rest.join("=").trim().replace(/^"|"$/g, "") : true);
  }
  return directives;
}

function seconds(value: string | true | undefined): number {
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) return 0;
  return Number(value);
}

/** `Cache-Tag: a, b` as a list; tags of another shape are refused (they could not be purged by name). */
export function cacheTags(value: string | null): string[] | undefined {
  const tags = [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
  if (tags.length > MAX_TAGS || tags.some((tag) => !TAG_SHAPE.test(tag))) return undefined;
  return tags;
}

/**
 * Whether a rendered answer may be shared, and for how long. Never: anything but 200 (a 404 only when the
 * route gave the 404 itself a shared `Cache-Control`: its `headers` export sees `errorHeaders`), a
 * `Set-Cookie`, `private`/`no-store`/`no-cache`, no `s-maxage`, a `Vary` on anything (the key holds no
 * header), bad tags.
 */
export function sharedCachePolicy(status: number, headers: Headers): SharedCachePolicy | undefined {
  if (status !== 200 && status !== 404) return undefined;
  if (headers.has("Set-Cookie")) return undefined;
  const vary = headers.get("Vary");
  if (vary && vary.trim().toLowerCase() !== "accept-encoding") return undefined;
  const directives = cacheControlDirectives(headers.get("Cache-Control"));
  if (["private", "no-store", "no-cache"].some((name) => directives.has(name))) return undefined;
  const sMaxAge = seconds(directives.get("s-maxage"));
  if (sMaxAge <= 0) return undefined;
  const tags = cacheTags(headers.get("Cache-Tag"));
  if (!tags) return undefined;
  return { sMaxAge, staleWhileRevalidate: seconds(directives.get("stale-while-revalidate")), tags };
}

/**
 * Which requests the cache handles: GET and HEAD only; a request with `Authorization` is bypassed (never
 * looked up, never stored: an answer made for credentials is not shared, RFC 9111 section 3.5). Cookies
 * do not bypass: what is stored is always rendered by the cache from the key alone (`keyedRequest`).
 */
export function cacheHandling(request: Request): "lookup" | "bypass" | "none" {
  if (request.method !== "GET" && request.method !== "HEAD") return "none";
  return request.headers.has("Authorization") ? "bypass" : "lookup";
}

/**
 * The query as part of the key: parameters sorted by name only, so `?a=1&b=2` and `?b=2&a=1` share an entry,
 * while a name's repeated values keep their order (the sort is stable): a page reads `get()`, the first of
 * them, or `getAll()` in order, so `?x=a&x=b` and `?x=b&x=a` may render differently and are two keys. All
 * parameters are keyed, so no parameter can change a page without changing its key.
 */
export function normalizedQuery(url: URL): string {
  // Most requests have none: no URLSearchParams to build, sort and print (bench:profile, docs/PERFORMANCE.md).
  if (!url.search) return "";
  // Array sort is stable in every engine (ES2019): equal names keep the order they came in.
  const params = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  return query ? `?${query}` : "";
}

/**
 * The Cache API key of a page or its `.data`: the deployed version (a deploy never serves HTML naming the
 * previous build's assets), the host, the path and the normalized query. Nothing else: no header.
 */
export function cacheKeyUrl(version: string, url: URL): string {
  return `${url.origin}/__page-cache/${encodeURIComponent(version)}${url.pathname}${normalizedQuery(url)}`;
}

/**
 * The request a stored copy is rendered from: the URL, nothing of the visitor's (no cookie, no
 * `Authorization`, no header the key does not hold), so nothing unkeyed can reach a shared copy.
 */
export function keyedRequest(url: URL): Request {
  return new Request(url.href, { method: "GET" });
}

/** The page a path belongs to, for purges by path: `/a/b.data` is `/a/b`'s data, `/_root.data` is `/`'s. */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  return page.length > 1 && page.endsWith("/") ? page.slice(0, -1) : page || "/";
}

/** The purge store's names for a page's path and tags. */
export function purgeTargets(pathname: string, tags: readonly string[]): string[] {
  return [`path:${pagePathOf(pathname)}`, ...tags.map((tag) => `tag:${tag}`)];
}

export type EntryState = "fresh" | "stale" | "expired";

/** How an entry stored at `storedAt` (ms) may be served at `now`. */
export function entryState(storedAt: number, policy: SharedCachePolicy, now: number): EntryState {
  const age = (now - storedAt) / 1000;
  if (age < policy.sMaxAge) return "fresh";
  if (age < policy.sMaxAge + policy.staleWhileRevalidate) return "stale";
  return "expired";
}

/**
 * Whether a purge came after an entry: an entry rendered at or before the latest purge of its path or of one
 * of its tags is never served (the render may have read data the purge announced as changed).
 */
export function isPurged(storedAt: number, latestPurge: number | undefined): boolean {
  return latestPurge !== undefined && storedAt <= latestPurge;
}

export type CacheOutcome =
  | { kind: "hit"; ttl: number }
  | { kind: "stale" }
  | { kind: "miss"; stored: boolean; detail?: string }
  | { kind: "bypass" };

/** RFC 9211 `Cache-Status`, e.g. `edge-page-cache; hit; ttl=42; key="..."`. */
export function cacheStatus(outcome: CacheOutcome, key?: string): string {
  const parts = [PAGE_CACHE_NAME];
  if (outcome.kind === "hit") parts.push("hit", `ttl=${outcome.ttl}`);
  else if (outcome.kind === "stale") parts.push("fwd=stale");
  else if (outcome.kind === "bypass") parts.push("fwd=bypass");
  else {
    parts.push("fwd=miss");
    if (outcome.stored) parts.push("stored");
    if (outcome.detail) parts.push(`detail=${outcome.detail}`);
  }
  if (key) parts.push(`key=${JSON.stringify(key)}`);
  return parts.join("; ");
}

/**
 * A page rendered for sharing is rendered like any other, with a fresh nonce (the renderer always has one);
 * it is taken out again before the copy is stored, so what every visitor receives carries none and its
 * policy allows its inline scripts by hash (static-page-policy.ts, docs/decisions/010). The nonce is 128
 * random bits: its exact attribute occurs nowhere else in the page.
 */
export function withoutNonce(html: string, nonce: string): string {
  return html.replaceAll(` nonce="${nonce}"`, "");
}

/** The nonce a rendered page's policy allows (`'nonce-...'` in its Content-Security-Policy), if any. */
export function policyNonce(contentSecurityPolicy: string | null): string | undefined {
  return contentSecurityPolicy?.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
}
