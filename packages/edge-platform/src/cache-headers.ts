/**
 * Caching of what the Worker answers. Pre-rendered pages and built files are static assets:
 * their caching comes from the assets (public/_headers, vite/static-page-headers.ts), never from here; the
 * Worker passes a pre-rendered page's own `Cache-Control` and ETag on (packages/edge-platform/src/worker/static-pages.ts).
 */

/**
 * Everything the Worker answers is made for one request: a page carries that request's CSP nonce and a
 * form its submission id, `.data` and the tunnel carry live data, and redirects and refusals depend on the
 * request. `private` keeps shared caches (a CDN, a corporate proxy) from handing one visitor's answer to
 * another; `no-store` keeps it off the browser's disk too, so a back navigation after the page is gone
 * from memory fetches a fresh page (a new nonce and submission id) instead of replaying an old one.
 * Chromium keeps `no-store` pages in its back/forward cache (in memory, restored as they were), so this
 * costs no instant back navigation (packages/edge-platform/tests/platform/browser/back-forward-cache.spec.ts).
 */
export const PER_REQUEST_CACHE_CONTROL = "private, no-store";

/**
 * The caching headers the Worker adds on the way out: the per-request default, only when the response
 * has no `Cache-Control` of its own. A route that knows its answer may be shared sets one through its
 * `headers` export (React Router's way), and it is kept.
 */
export function missingCacheHeaders(headers: Headers): Record<string, string> {
  return headers.has("Cache-Control") ? {} : { "Cache-Control": PER_REQUEST_CACHE_CONTROL };
}
