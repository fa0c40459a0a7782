/**
 * The shared-page decisions, as pure functions (packages/edge-platform/docs/caching.md, packages/edge-platform/docs/decisions/024-workers-cache.md). Shared
 * pages are stored by Cloudflare's Workers Cache, in front of the Worker; the Worker's glue
 * (packages/edge-platform/src/worker/shared-pages.ts) only tells it what it may store, and purges.
 *
 * A route opts in only through its React Router `headers` export, in HTTP's own terms:
 * `Cache-Control: public, s-maxage=60, stale-while-revalidate=600` and `Cache-Tag: a,b` (Cloudflare's
 * convention). Nothing else is ever shared.
 */

import { pageOfPath } from "../single-fetch.ts";

/**
 * What a stored page may be served for: `sMaxAge` fresh, then `staleWhileRevalidate` more while refreshed,
 * and `staleIfError` past its freshness while refreshes fail (RFC 5861): the route's own `stale-if-error`,
 * else as long as its `stale-while-revalidate`, so an outage does not end the stale window it declared.
 */
export type SharedCachePolicy = {
  sMaxAge: number;
  staleWhileRevalidate: number;
  staleIfError: number;
  tags: string[];
};

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
  const staleWhileRevalidate = seconds(directives.get("stale-while-revalidate"));
  const staleIfError = directives.has("stale-if-error")
    ? seconds(directives.get("stale-if-error"))
    : staleWhileRevalidate;
  return { sMaxAge, staleWhileRevalidate, staleIfError, tags };
}

/**
 * Whether an answer to this request may be shared: GET and HEAD only, and never one made for a request with
 * `Authorization` (RFC 9111 section 3.5; Workers Cache would store it if it said `public`). Cookies do not
 * prevent sharing, but a shared answer is always rendered from the URL alone (`keyedRequest`).
 */
export function mayShareAnswer(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  return !request.headers.has("Authorization");
}

/**
 * The request a shared answer is rendered from: the URL, nothing of the visitor's (no cookie, no
 * `Authorization`, no header the key does not hold), so nothing unkeyed can reach a shared copy.
 */
export function keyedRequest(url: URL): Request {
  return new Request(url.href, { method: "GET" });
}

/**
 * The tag every shared answer of a page carries, its document and its `.data` alike, so that a purge by the
 * page's path reaches both (Workers Cache purges by tag or by path prefix, and a prefix would also reach
 * `/messages/latest-archive`). A comma would split the tag: it is written as in a URL.
 */
export function pathTag(pathname: string): string {
  return `path:${pageOfPath(pathname).replaceAll(",", "%2C")}`;
}

/**
 * A page rendered for sharing is rendered like any other, with a fresh nonce (the renderer always has one);
 * it is taken out again before the copy is stored, so what every visitor receives carries none and its
 * policy allows its inline scripts by hash (headers.ts, hashedDocumentHeaders; decisions/010). The nonce is 128
 * random bits: its exact attribute occurs nowhere else in the page.
 */
export function withoutNonce(html: string, nonce: string): string {
  return html.replaceAll(` nonce="${nonce}"`, "");
}

/** The nonce a rendered page's policy allows (`'nonce-...'` in its Content-Security-Policy), if any. */
export function policyNonce(contentSecurityPolicy: string | null): string | undefined {
  return contentSecurityPolicy?.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
}
