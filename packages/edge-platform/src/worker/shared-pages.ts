import { INLINE_STYLESHEETS } from "../built-stylesheets";
import { PER_REQUEST_CACHE_CONTROL } from "../cache-headers";
import {
  keyedRequest,
  mayShareAnswer,
  policyNonce,
  sharedCachePolicy,
  sharedPageHeaders,
  withoutNonce,
} from "../page-cache/policy";
import type { PolicyOptions } from "../security-headers";
import { staticPageHeaders } from "../static-page-policy";

/**
 * Shared pages (packages/edge-platform/docs/caching.md, packages/edge-platform/docs/decisions/024-workers-cache.md). Cloudflare's Workers Cache stands
 * in front of the Worker: a hit never reaches this code, concurrent misses of one URL reach it once, and it
 * stores what the answer's headers allow. So the Worker only shapes the answers a route declared shareable
 * into what may be stored for everyone:
 *
 * - rendered from the URL alone (keyedRequest) whenever the visitor's request carried a cookie, so nothing
 *   of theirs reaches the shared copy;
 * - without the render's nonce, its inline scripts allowed by hash, like a pre-rendered page (decision 010);
 * - with the edge's headers (`Cloudflare-CDN-Cache-Control`, `Cache-Tag`) and the browser's `private,
 *   no-store` (policy.ts, sharedPageHeaders).
 *
 * Everything else leaves as rendered. A route's `s-maxage` never leaves the Worker: an answer that may not be
 * shared (a request with `Authorization`) gets the browser's per-request caching instead.
 */
export type SharedPageParts = {
  /** Renders a request through the app (with or without reporting). */
  render: (request: Request) => Promise<Response>;
  /** What a shared page's hashed policy allows besides its scripts (a self-hosted Sentry). */
  policy: PolicyOptions;
};

export async function answerSharedPages(
  request: Request,
  url: URL,
  parts: SharedPageParts,
): Promise<Response> {
  const response = await parts.render(request);
  const policy = sharedCachePolicy(response.status, response.headers);
  if (!policy) return response;
  if (!mayShareAnswer(request)) return perRequest(response);
  // A HEAD is answered with the headers of the GET whose copy would be stored (the policy's hashes need
  // the page); Workers Cache itself sends a cold HEAD on as a GET.
  if (!request.headers.has("Cookie") && request.method === "GET") {
    return sharedCopy(response, sharedPageHeaders(policy, url.pathname), parts.policy);
  }
  await response.body?.cancel();
  const keyed = await parts.render(keyedRequest(url));
  // The route decides again from the URL alone (it might have shared only what a cookie chose).
  const again = sharedCachePolicy(keyed.status, keyed.headers);
  if (!again) return keyed;
  const copy = await sharedCopy(keyed, sharedPageHeaders(again, url.pathname), parts.policy);
  return request.method === "HEAD" ? new Response(null, copy) : copy;
}

/** The answer with the browser's per-request caching and none of the edge's headers. */
function perRequest(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", PER_REQUEST_CACHE_CONTROL);
  headers.delete("Cache-Tag");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A page as every visitor may receive it: no nonce, its policy by hash, the edge's and browser's caching. */
async function sharedCopy(
  response: Response,
  edgeHeaders: Record<string, string>,
  policy: PolicyOptions,
): Promise<Response> {
  const headers = new Headers(response.headers);
  let body: BodyInit | null = response.body;
  // Under `npm run dev` the copy keeps the nonce and policy it was rendered with: its inline module script
  // imports React Router's HMR runtime, which no modulepreload fetches first, and a script allowed by hash
  // may not import what was not preloaded; Vite's injected `<style>` elements need the nonce too. The
  // nonce-free copy is what `npm start`, the tests and production serve.
  if (!import.meta.env.DEV && headers.get("Content-Type")?.startsWith("text/html")) {
    const nonce = policyNonce(headers.get("Content-Security-Policy"));
    const html = await response.text();
    const page = nonce ? withoutNonce(html, nonce) : html;
    for (const [name, value] of Object.entries(await staticPageHeaders(page, policy, INLINE_STYLESHEETS))) {
      headers.set(name, value);
    }
    headers.delete("Content-Length");
    body = page;
  }
  for (const [name, value] of Object.entries(edgeHeaders)) headers.set(name, value);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
