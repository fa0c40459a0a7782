import { INLINE_STYLESHEETS } from "../app/platform/built-stylesheets";
import { PER_REQUEST_CACHE_CONTROL } from "../app/platform/cache-headers";
import { withHeaderChanges } from "../app/platform/http/response-headers";
import {
  type CacheOutcome,
  cacheControlDirectives,
  cacheHandling,
  cacheKeyUrl,
  cacheStatus,
  entryState,
  isPurged,
  keyedRequest,
  policyNonce,
  type SharedCachePolicy,
  sharedCachePolicy,
  withoutNonce,
} from "../app/platform/page-cache/policy";
import { latestPurge, readPurgeMarker } from "../app/platform/page-cache/purge.server";
import type { PolicyOptions } from "../app/platform/security-headers";
import { staticPageHeaders } from "../app/platform/static-page-policy";

/**
 * The edge page cache (docs/decisions/017-edge-page-cache.md): pages whose route said so through its
 * `headers` export are answered from Cloudflare's Cache API (`caches.default`, one per data center), checked
 * against the global purge store. The decisions are pure functions (app/platform/page-cache/policy.ts);
 * this is the glue that touches the Cache API, the store and the renderer.
 *
 * - fresh: served at once (`hit`); stale within `stale-while-revalidate`: served at once (`fwd=stale`)
 *   while one background render per key and isolate refreshes it (isolates do not share memory, so two
 *   isolates of one data center may each refresh once: harmless, both store the same page);
 * - a copy that is stored is always rendered by the cache from the key alone (keyedRequest), never from a
 *   visitor's request, so no cookie, `Authorization` or unkeyed header can reach a shared copy;
 * - the browser gets `private, no-store`: the edge holds the only shared copy, so a purge reaches everyone.
 */

export type PageCacheParts = {
  /** The deployed version (CF_VERSION_METADATA.id): part of every key. */
  version: string;
  /** The purge store (D1). */
  purgeStore: D1Database;
  /** Renders a request through the app (with or without reporting). */
  render: (request: Request) => Promise<Response>;
  ctx: ExecutionContext;
  /** What a stored page's hashed policy allows besides its scripts (a self-hosted Sentry). */
  policy: PolicyOptions;
};

/** When the cache rendered a stored copy (ms): the render started then, so a purge during it counts. */
const STORED_AT = "X-Page-Cache-Stored-At";
/** The route's own `Cache-Control`; the stored copy's is for the Cache API's retention. */
const ROUTE_CACHE_CONTROL = "X-Page-Cache-Route-Cache-Control";

/** Background refreshes under way in this isolate, by key: one per key, not one per request. */
const refreshing = new Map<string, Promise<void>>();

/** Keys this isolate has stored (bounded): their page is known to be shareable before it is rendered. */
const MAX_SHAREABLE_KEYS = 1_000;
const shareableKeys = new Set<string>();

export async function servePageCached(request: Request, url: URL, parts: PageCacheParts): Promise<Response> {
  const handling = cacheHandling(request);
  // `npm run dev` renders every request afresh, as it does pre-rendered pages.
  if (handling === "none" || import.meta.env.DEV) return parts.render(request);
  if (handling === "bypass") return toVisitor(await parts.render(request), { kind: "bypass" });
  const key = cacheKeyUrl(parts.version, url);
  // Only a key this isolate has seen a route declare shareable is looked up. Any other GET (a dynamic page,
  // its data) would pay a Cache API read for nothing, a subrequest on Cloudflare: bench:ssr measured the
  // platform at 0.69x of the bare handler on dynamic pages with a read on every request (docs/PERFORMANCE.md).
  // The cost: an isolate's first request for a shareable page renders it (and stores it) once.
  const entry = shareableKeys.has(key) ? await edgeCache().match(key) : undefined;
  const stored = entry && storedEntry(entry);
  const marker = await readPurgeMarker(request);
  // The visitor purged something lately and this copy (if any) is older: they must read their own write.
  const writer = marker !== undefined && (!stored || isPurged(stored.storedAt, marker));
  if (entry && stored) {
    const latest = await latestPurgeOrAlways(parts.purgeStore, url.pathname, stored.policy.tags);
    if (!isPurged(stored.storedAt, latest) && !writer) {
      const state = entryState(stored.storedAt, stored.policy, Date.now());
      if (state === "fresh") {
        const ttl = Math.max(
          0,
          Math.floor(stored.storedAt / 1000 + stored.policy.sMaxAge - Date.now() / 1000),
        );
        return toVisitor(entry, { kind: "hit", ttl }, key, request.method);
      }
      if (state === "stale") {
        refreshInBackground(key, url, parts);
        return toVisitor(entry, { kind: "stale" }, key, request.method);
      }
    }
  }
  // Not served (purged, expired, not ours): its body is not read.
  await entry?.body?.cancel();
  // A page known to be shareable (its copy is purged or expired, or this isolate stored it before and the
  // cache has lost it, as where the Cache API does nothing: docs/page-cache.md): the cache renders it from the
  // key, stores it and serves that very copy, one render. Not for the writer: their own request is rendered
  // (it carries their database bookmark), so they read their write whatever a replica holds.
  if ((stored || shareableKeys.has(key)) && !writer && request.method === "GET") {
    const copy = await renderAndStore(key, url, parts);
    if (copy) return toVisitor(copy, { kind: "miss", stored: true }, key);
  }
  const response = await parts.render(request);
  if (!sharedCachePolicy(response.status, response.headers)) {
    return toVisitor(response, { kind: "miss", stored: false }, key);
  }
  // Rendered from the visitor's request, so not shared: the cache stores a copy of its own, once (unless
  // one was stored while this render ran).
  if (request.method === "GET" && !shareableKeys.has(key)) refreshInBackground(key, url, parts);
  return toVisitor(response, { kind: "miss", stored: false, detail: "storing" }, key);
}

/** The stored copy's policy and time; `undefined` for anything this cache did not write. */
function storedEntry(entry: Response): { policy: SharedCachePolicy; storedAt: number } | undefined {
  const storedAt = Number(entry.headers.get(STORED_AT));
  const routeHeaders = new Headers(entry.headers);
  routeHeaders.set("Cache-Control", entry.headers.get(ROUTE_CACHE_CONTROL) ?? "");
  const policy = sharedCachePolicy(entry.status, routeHeaders);
  return policy && Number.isSafeInteger(storedAt) && storedAt > 0 ? { policy, storedAt } : undefined;
}

/** The store's answer, or "purged just now" when it cannot answer: a copy is never served unchecked. */
async function latestPurgeOrAlways(store: D1Database, pathname: string, tags: string[]): Promise<number> {
  try {
    return (await latestPurge(store, pathname, tags, Date.now())) ?? 0;
  } catch (error) {
    console.error("page cache: the purge store did not answer; rendering instead", error);
    return Number.MAX_SAFE_INTEGER;
  }
}

function refreshInBackground(key: string, url: URL, parts: PageCacheParts): void {
  if (refreshing.has(key)) return;
  console.info(`page cache: refreshing ${url.pathname}${url.search}`);
  const done = renderAndStore(key, url, parts)
    .then(
      () => {},
      (error: unknown) => console.error("page cache: a background refresh failed", error),
    )
    .finally(() => refreshing.delete(key));
  refreshing.set(key, done);
  parts.ctx.waitUntil(done);
}

/**
 * Renders the page from its key alone and stores it when the route (still) says it may be shared: a page
 * without its nonce, allowed by the hashes of its inline scripts, like a pre-rendered page.
 */
async function renderAndStore(key: string, url: URL, parts: PageCacheParts): Promise<Response | undefined> {
  const startedAt = Date.now();
  const response = await parts.render(keyedRequest(url));
  const policy = sharedCachePolicy(response.status, response.headers);
  if (!policy) {
    await response.body?.cancel();
    return undefined;
  }
  const headers = new Headers(response.headers);
  let body: string | ArrayBuffer;
  if (headers.get("Content-Type")?.startsWith("text/html")) {
    const nonce = policyNonce(headers.get("Content-Security-Policy"));
    const html = await response.text();
    body = nonce ? withoutNonce(html, nonce) : html;
    for (const [name, value] of Object.entries(
      await staticPageHeaders(body, parts.policy, INLINE_STYLESHEETS),
    )) {
      headers.set(name, value);
    }
  } else {
    body = await response.arrayBuffer();
  }
  headers.set(ROUTE_CACHE_CONTROL, headers.get("Cache-Control") ?? "");
  headers.set(STORED_AT, String(startedAt));
  // The Cache API keeps the copy as long as it may be served at all; freshness is decided above.
  headers.set("Cache-Control", `public, max-age=${policy.sMaxAge + policy.staleWhileRevalidate}`);
  headers.delete("Content-Length");
  const copy = new Response(body, { status: response.status, headers });
  await edgeCache().put(key, copy.clone());
  if (shareableKeys.size >= MAX_SHAREABLE_KEYS) shareableKeys.clear();
  shareableKeys.add(key);
  return copy;
}

/**
 * What the visitor receives from the cache or a render it saw: `Cache-Status`, and for a shareable page the
 * browser's `Cache-Control` (no `s-maxage` reaches a CDN or proxy behind us, no copy stays in the browser) and
 * none of the cache's own headers.
 */
function toVisitor(response: Response, outcome: CacheOutcome, key?: string, method = "GET"): Response {
  // A HEAD served from a stored GET gets its headers without its body.
  const served = method === "HEAD" && response.body ? new Response(null, response) : response;
  const shared =
    served.headers.has(STORED_AT) ||
    cacheControlDirectives(served.headers.get("Cache-Control")).has("s-maxage");
  const changes: [string, string | null][] = shared
    ? [
        ["Cache-Control", PER_REQUEST_CACHE_CONTROL],
        ...["Cache-Tag", STORED_AT, ROUTE_CACHE_CONTROL].map((name): [string, null] => [name, null]),
      ]
    : [];
  changes.push(["Cache-Status", cacheStatus(outcome, key)]);
  // Not a copy of every GET answer: in place unless the headers are immutable (a Cache API match).
  return withHeaderChanges(served, changes);
}

/** The data center's cache. The code is typed with the DOM's lib (for the renderer), which lacks `default`. */
function edgeCache(): Cache {
  return (caches as unknown as { default: Cache }).default;
}
