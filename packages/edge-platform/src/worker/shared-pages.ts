import { INLINE_STYLESHEETS } from "../built-stylesheets";
import { type PolicyOptions, perRequestCaching, sharedCopyHeaders } from "../headers";
import { EMULATION_HEADERS } from "../page-cache/local-emulation";
import {
  type SharedPagesProps,
  sharedPagesProps,
  VISITOR_HEADER,
  visitorHeaderValue,
} from "../page-cache/loopback";
import {
  cacheControlDirectives,
  keyedRequest,
  mayShareAnswer,
  policyNonce,
  type SharedCachePolicy,
  sharedCachePolicy,
  withoutNonce,
} from "../page-cache/policy";
import type { WorkerEnv } from "../platform-env";
import type { Visitor } from "../visitor/visitor";
import { throughLocalEmulation } from "./workers-cache";

/**
 * Shared pages (packages/edge-platform/docs/caching.md, packages/edge-platform/docs/decisions/024-workers-cache.md). Cloudflare's Workers Cache stands
 * in front of the Worker's `SharedPages` entrypoint, which the gateway (the default entrypoint) calls for
 * every request whose answer may be shared, with the visitor's negotiated locale as `ctx.props`: a hit never
 * reaches the entrypoint, concurrent misses of one URL and locale reach it once, and it stores what the
 * answer's headers allow. So the entrypoint only shapes the answers a route declared shareable into what may
 * be stored for everyone who negotiates that locale:
 *
 * - rendered from the URL alone (keyedRequest) for no one in particular (`renderShared`: the props'
 *   language, no time zone), so nothing of the visitor's (a cookie's effect, their time zone) reaches the
 *   shared copy, once per miss once the isolate knows the route shares (`sharedRoutes` below);
 * - without the render's nonce, its inline scripts allowed by hash, like a pre-rendered page (decision 010);
 * - with the edge's headers (`Cloudflare-CDN-Cache-Control`, `Cache-Tag`) and the browser's `private,
 *   no-store` (headers.ts, sharedPageHeaders).
 *
 * Everything else leaves as rendered. A route's `s-maxage` never leaves the Worker: an answer that may not be
 * shared (a request with `Authorization`) gets the browser's per-request caching instead.
 */
export type SharedPageParts = {
  /** Renders the visitor's request through the app, for them: the Worker's next step. */
  render: (request: Request) => Promise<Response>;
  /** Renders a request for every visitor alike (the shared visitor, visitor/visitor.ts). */
  renderShared: (request: Request) => Promise<Response>;
  /** What a shared page's hashed policy allows besides its scripts (a self-hosted Sentry). */
  policy: PolicyOptions;
  /**
   * The route that answers the request (its leaf route's id, and whether it asks for page data): what the
   * isolate remembers about which render comes first (`sharedRoutes`).
   */
  route: string;
  /**
   * Whether the route's `headers` export, called without any data, already declares its answer shared (a
   * constant `Cache-Control: public, s-maxage=...`, as most shared routes write it): then even its first miss
   * in an isolate renders the copy first.
   */
  declaresSharing: boolean;
};

/**
 * Which render a request for a route starts with, remembered per isolate: a route's answer says whether it
 * is shared only once rendered (its `headers` export), and rendering every miss twice, once for the visitor
 * and once for everyone, would double its cost. A route whose last answer here was shared is rendered for
 * everyone first (the copy, one render per miss: a hit would have served this visitor that same copy,
 * cookie or not), and so is one whose `headers` export declares sharing without data (`declaresSharing`), until
 * an answer of it is not shared. Any other is rendered for the visitor first (one render for a page rendered per request,
 * and no second render of a failure, which would report it twice); if that answer says it is shared, the
 * copy is rendered too, once, and the route remembered. Bounded by the app's routes (twice: documents and
 * page data). packages/edge-platform/docs/decisions/030-shared-pages-through-outages-one-render.md.
 */
const sharedRoutes = new Set<string>();
/** Routes whose answer here was not shared although their `headers` export declares it (a 404, say). */
const unsharedRoutes = new Set<string>();

function rendersCopyFirst({
  route,
  declaresSharing,
}: Pick<SharedPageParts, "route" | "declaresSharing">): boolean {
  return sharedRoutes.has(route) || (declaresSharing && !unsharedRoutes.has(route));
}

/**
 * The routes whose answers the gateway sends to the SharedPages entrypoint before rendering anything, because
 * an answer of theirs was one Workers Cache may keep (shared, or with the edge's own caching headers), or
 * because the isolate renders their copy first (above). Any other request is rendered by the gateway itself,
 * for the visitor, without the hop to the entrypoint (about 350 µs of CPU per request in workerd: a dynamic
 * page had 0.87x the throughput with it, page data 0.78x; docs/PERFORMANCE.md, "Shared pages"); when that
 * answer turns out storable, the route is remembered here and the request goes to the entrypoint after all
 * (worker/app.ts, the shared-pages step). Bounded by the app's routes (twice: documents and page data).
 */
const cachedRoutes = new Set<string>();

export function goesToSharedPages(route: Pick<SharedPageParts, "route" | "declaresSharing">): boolean {
  return cachedRoutes.has(route.route) || rendersCopyFirst(route);
}

/**
 * A route whose answer the gateway found storable: its requests go to the SharedPages entrypoint from now on,
 * and when the answer was shared the entrypoint renders its copy first (the gateway's render was the
 * visitor's: a first miss costs two renders, as in `visitorFirst`).
 */
export function rememberCached(route: string, shared: boolean): void {
  cachedRoutes.add(route);
  if (shared) {
    sharedRoutes.add(route);
    unsharedRoutes.delete(route);
  }
}

export async function answerSharedPages(
  request: Request,
  url: URL,
  parts: SharedPageParts,
): Promise<Response> {
  if (!mayShareAnswer(request) || !rendersCopyFirst(parts)) return visitorFirst(request, url, parts);
  // The copy is rendered from the URL alone for no one in particular, so nothing of the visitor's (a
  // cookie's effect, their time zone) reaches it. A HEAD is answered with the headers of the GET whose copy
  // would be stored (the policy's hashes need the page); Workers Cache itself sends a cold HEAD on as a GET.
  const keyed = await parts.renderShared(keyedRequest(url));
  const policy = sharedCachePolicy(keyed.status, keyed.headers);
  if (policy) return shapedCopy(request, keyed, policy, url, parts);
  // A failure is answered as it is (rendered again it would fail, and be reported, twice); a route that no
  // longer shares renders the visitor's own answer, and is not rendered for everyone first again.
  if (keyed.status >= 500) return answerForRequestOnly(keyed);
  await keyed.body?.cancel();
  sharedRoutes.delete(parts.route);
  unsharedRoutes.add(parts.route);
  return answerForRequestOnly(await parts.render(request));
}

/** For a route not known to share: the visitor's answer first, the copy only if that one says so. */
async function visitorFirst(request: Request, url: URL, parts: SharedPageParts): Promise<Response> {
  const response = await parts.render(request);
  if (!sharedCachePolicy(response.status, response.headers)) return answerForRequestOnly(response);
  if (!mayShareAnswer(request)) return perRequestCaching(response);
  // The route decides again from the URL alone (it might have shared only what a cookie chose): the
  // visitor keeps their own answer, not shared, unless the URL alone is shared too.
  const keyed = await parts.renderShared(keyedRequest(url));
  const policy = sharedCachePolicy(keyed.status, keyed.headers);
  if (!policy) {
    await keyed.body?.cancel();
    return answerForRequestOnly(response);
  }
  await response.body?.cancel();
  sharedRoutes.add(parts.route);
  unsharedRoutes.delete(parts.route);
  return shapedCopy(request, keyed, policy, url, parts);
}

async function shapedCopy(
  request: Request,
  keyed: Response,
  policy: SharedCachePolicy,
  url: URL,
  parts: SharedPageParts,
): Promise<Response> {
  const copy = await sharedCopy(keyed, policy, url.pathname, parts.policy);
  return request.method === "HEAD" ? new Response(null, copy) : copy;
}

/** A page as every visitor may receive it: no nonce, its policy by hash, the edge's and browser's caching. */
async function sharedCopy(
  response: Response,
  cache: SharedCachePolicy,
  pathname: string,
  policy: PolicyOptions,
): Promise<Response> {
  let page: string | undefined;
  // Under `npm run dev` the copy keeps the nonce and policy it was rendered with: its inline module script
  // imports React Router's HMR runtime, which no modulepreload fetches first, and a script allowed by hash
  // may not import what was not preloaded; Vite's injected `<style>` elements need the nonce too. The
  // nonce-free copy is what `npm start`, the tests and production serve.
  if (!import.meta.env.DEV && response.headers.get("Content-Type")?.startsWith("text/html")) {
    const nonce = policyNonce(response.headers.get("Content-Security-Policy"));
    const html = await response.text();
    page = nonce ? withoutNonce(html, nonce) : html;
  }
  const headers = await sharedCopyHeaders(
    response.headers,
    { page, policy, stylesheets: INLINE_STYLESHEETS },
    cache,
    pathname,
  );
  const body = page ?? response.body;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The gateway's way to the SharedPages entrypoint for a request whose answer may be shared: the visitor it
 * decided in VISITOR_HEADER (whatever a client sent there is replaced), their locale as the call's props (part
 * of Workers Cache's key), nothing else changed. `call` reaches the entrypoint (`ctx.exports`, with Workers
 * Cache in front); locally the Workers Cache emulation stands in front of it instead, when there is one
 * (workers-cache.ts).
 */
export function throughSharedPages(
  request: Request,
  visitor: Visitor,
  env: WorkerEnv,
  call: (loopback: Request, props: SharedPagesProps) => Promise<Response> | Response,
): Promise<Response> | Response {
  const headers = new Headers(request.headers);
  for (const name of EMULATION_HEADERS) headers.delete(name);
  headers.set(VISITOR_HEADER, visitorHeaderValue(visitor));
  const loopback = new Request(request, { headers });
  const props = sharedPagesProps(visitor);
  return throughLocalEmulation(loopback, props, env) ?? call(loopback, props);
}

/**
 * An answer made for one request only (a request that may not be shared, no locale to share it in, or an
 * answer the policy does not share, such as one that sets a cookie): a route's `public` or `s-maxage` never
 * leaves with it; it gets the browser's per-request caching instead. An answer that is not shared must not say
 * it may be. (A route that writes the edge's own headers, `Cloudflare-CDN-Cache-Control` and `Cache-Tag`,
 * speaks to Workers Cache alone and keeps them: fixture/app/routes/workers-cached.tsx.)
 */
export function answerForRequestOnly(response: Response): Response {
  const directives = cacheControlDirectives(response.headers.get("Cache-Control"));
  return directives.has("public") || directives.has("s-maxage") ? perRequestCaching(response) : response;
}
