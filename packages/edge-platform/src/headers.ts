/**
 * Every header the platform gives an answer, in one module: the base set of every answer, a document's
 * policy (rendered per request with a nonce, or pre-rendered and shared copies allowed by hash), caching for
 * one request or for the edge, and the refusals' `Allow` and `Retry-After`. The Worker's steps, the renderer
 * and the build's assets `_headers` file (vite/static-page-headers.ts) take their headers from here, so what
 * a response carries is read in one place (packages/edge-platform/docs/security.md, caching.md).
 */

import type { InlineStylesheets } from "./built-stylesheets.ts";
import { PRELOAD_LINK_HEADER_MAX_BYTES } from "./constants.ts";
import { type DocumentFacts, type HeadLink, scanDocument } from "./document-scan.ts";
import { withHeaderChanges } from "./http/response-headers.ts";
import { pathTag, type SharedCachePolicy } from "./page-cache/policy.ts";

// ---------------------------------------------------------------------------------------------------------
// Every answer

/** Headers every response carries, documents or not (a JS file, a `.data` payload, a 403). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Two years, the HSTS preload list's minimum; browsers ignore it on plain-http (local) origins.
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/**
 * For responses that are not pages (data, text, JSON): nothing may run or load if one is ever opened
 * as a document, and nobody may frame it.
 */
export const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The headers of every answer that is not a page: what the Worker adds when the renderer set no policy,
 * and what the assets `_headers` file gives static files (static-page-headers.ts).
 */
export const NON_DOCUMENT_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": NON_DOCUMENT_CSP,
  // frame-ancestors says the same to browsers that read CSP; this is for those that do not.
  "X-Frame-Options": "DENY",
};

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
 * What every answer leaves the Worker with (its first step, so it sees each answer last): the base security
 * headers when missing, the locked-down policy when nothing set a page policy (every non-HTML answer), the
 * per-request caching when the answer has no `Cache-Control` of its own (a route that knows its answer may
 * be shared sets one through its `headers` export, React Router's way, and it is kept), and a 405's `Allow`.
 */
export function withPlatformHeaders(response: Response): Response {
  const { headers, status } = response;
  const missing: [string, string][] = [];
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) {
    if (!headers.has(name)) missing.push([name, value]);
  }
  if (!headers.has("Content-Security-Policy")) {
    for (const [name, value] of Object.entries(NON_DOCUMENT_SECURITY_HEADERS)) {
      if (!headers.has(name)) missing.push([name, value]);
    }
  }
  if (!headers.has("Cache-Control")) missing.push(["Cache-Control", PER_REQUEST_CACHE_CONTROL]);
  // RFC 9110 (15.5.6): a 405 lists the methods its target supports. A product's own refusal may say
  // (`data(…, { status: 405, headers: { Allow: "POST" } })`). The platform's for a route without an action
  // (errors/with-error-digests.server.ts) and React Router's own, for a method it does not handle at all
  // (OPTIONS, PROPFIND), carry none: they get the methods every page answers, here. A route with an action
  // takes POST too, which this leaves out: the Worker does not match routes to find out.
  if (status === 405 && !headers.has("Allow")) missing.push(allowHeader("GET, HEAD"));
  if (missing.length === 0) return response;
  // In place where the headers may change; responses from fetch() or Response.redirect() are copied.
  return withHeaderChanges(response, missing);
}

/**
 * A write refused for its client's limit says when to try again. React Router drops an action's headers on a
 * page whose route has no `headers` export, so the wait is added to the answer, document and page data alike.
 */
export function withRetryAfter(response: Response, seconds: number): Response {
  return withHeaderChanges(response, [retryAfterHeader(seconds)]);
}

/**
 * RFC 9110 (10.2.3): when a client may try again, in seconds. Every `Retry-After` the Worker writes is made
 * here: a refused write's (withRetryAfter) and the tunnel's own 429 (worker/monitoring-tunnel.ts).
 */
export function retryAfterHeader(seconds: number): [string, string] {
  return ["Retry-After", String(seconds)];
}

/**
 * RFC 9110 (10.2.1): the methods a 405's target supports. Every `Allow` the Worker writes is made here: a
 * page's 405 without one (withPlatformHeaders) and the tunnel's (worker/monitoring-tunnel.ts).
 */
export function allowHeader(methods: string): [string, string] {
  return ["Allow", methods];
}

// ---------------------------------------------------------------------------------------------------------
// Documents

/**
 * Powerful features the app does not use, switched off for it and anything it embeds. Only names
 * Chromium recognises: an unknown one is a console error on every page.
 */
const DISABLED_FEATURES = [
  "accelerometer",
  "autoplay",
  "browsing-topics",
  "camera",
  "display-capture",
  "encrypted-media",
  "geolocation",
  "gyroscope",
  "hid",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
];

export const PERMISSIONS_POLICY = DISABLED_FEATURES.map((feature) => `${feature}=()`).join(", ");

/**
 * How a document's scripts are allowed: pages rendered per request carry a fresh nonce; pre-rendered
 * pages cannot, so their inline scripts are allowed by the SHA-256 of their text, computed at build time.
 */
export type ScriptAllowance = { nonce: string } | { sha256: readonly string[] };

/**
 * `development` is `npm run dev` (import.meta.env.DEV): Vite injects CSS there as `<style>` elements it
 * creates from JavaScript (a route's `import "./page.css"`, the error overlay), which it marks with the
 * nonce of `<meta property="csp-nonce">` (packages/edge-platform/src/document.tsx). Only those get in: style attributes stay refused,
 * as in production, so code that works in development keeps working when deployed.
 */
export type PolicyOptions = {
  development?: boolean;
  /**
   * A self-hosted Sentry's origin (config.server.ts `directOrigin`): the browser reports there directly,
   * so `connect-src` allows it. Sentry's SaaS needs nothing here: its reports go through the tunnel.
   */
  reportOrigin?: string | undefined;
  /**
   * The SHA-256 of each stylesheet the page inlines as `<style>` (built-stylesheets.ts), for `style-src`:
   * those elements and no others.
   */
  styleSha256?: readonly string[];
};

/**
 * The document policy. `'strict-dynamic'` lets the allowed inline scripts load the route modules (and
 * those load theirs) without listing hosts; `connect-src 'self'` holds because reports go through the
 * same-origin tunnel (packages/edge-platform/docs/contract.md C7), except to a self-hosted Sentry. Inline style attributes are
 * not allowed: styles come from stylesheets, the inlined ones by hash.
 */
export function contentSecurityPolicy(
  scripts: ScriptAllowance,
  { development = false, reportOrigin, styleSha256 = [] }: PolicyOptions = {},
): string {
  const scriptSources =
    "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.sha256.map((hash) => `'sha256-${hash}'`);
  const devStyleSources = development && "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": [...scriptSources, "'strict-dynamic'"],
    "style-src": ["'self'", ...styleSha256.map((hash) => `'sha256-${hash}'`), ...devStyleSources],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(reportOrigin ? [reportOrigin] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/** Every header of an HTML page: the base set, its policy, and what keeps its window and frame its own. */
export function documentSecurityHeaders(
  scripts: ScriptAllowance,
  options?: PolicyOptions,
): Record<string, string> {
  return {
    ...BASE_SECURITY_HEADERS,
    "Content-Security-Policy": contentSecurityPolicy(scripts, options),
    "Permissions-Policy": PERMISSIONS_POLICY,
    // A page this app opens, or that opens it, gets no handle on its window.
    "Cross-Origin-Opener-Policy": "same-origin",
    // frame-ancestors says the same to browsers that read CSP; this is for those that do not.
    "X-Frame-Options": "DENY",
  };
}

/**
 * Sets a page's headers on the renderer's `responseHeaders` from its rendered `<head>` (rendered-head.ts): the policy with this
 * request's nonce, its inlined stylesheets allowed by the hashes the build computed (as on pre-rendered pages
 * and the edge's copies, which have no nonce: decisions/022-inline-critical-css.md), and the `Link` preloads
 * of its stylesheets and first-load modules for 103 Early Hints (decisions/018-paint-first.md).
 */
export function setRenderedDocumentHeaders(
  headers: Headers,
  facts: Pick<DocumentFacts, "language" | "inlineStylesheets" | "headLinks">,
  nonce: string,
  policy: PolicyOptions,
  stylesheets: InlineStylesheets,
): void {
  headers.set("Content-Type", "text/html; charset=utf-8");
  const language = contentLanguage(facts.language);
  if (language) headers.set("Content-Language", language);
  const styleSha256 = inlineStyleHashes(facts.inlineStylesheets, stylesheets);
  for (const [name, value] of Object.entries(
    documentSecurityHeaders({ nonce }, { ...policy, styleSha256 }),
  )) {
    headers.set(name, value);
  }
  const preloads = earlyHintsLinkHeader(facts.headLinks);
  if (preloads) headers.set("Link", preloads);
}

/** Base64 SHA-256 of a script's text, as a CSP hash source wants it. */
export async function scriptHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/**
 * Every header of a pre-rendered page (or an edge-cached copy), from what its document holds (document-scan.ts):
 * its inline scripts allowed by hash, each hash once, its inlined stylesheets by the hashes of the build's files
 * (`stylesheets`, built-stylesheets.ts; decisions/022-inline-critical-css.md), and the `Link` preloads of its
 * linked stylesheets and first-load modules (Early Hints, decisions/018-paint-first.md).
 */
export async function hashedDocumentHeaders(
  facts: DocumentFacts,
  policy: PolicyOptions = {},
  stylesheets: InlineStylesheets = {},
): Promise<Record<string, string>> {
  const sha256 = [...new Set(await Promise.all(facts.inlineScripts.map(scriptHash)))];
  const styleSha256 = inlineStyleHashes(facts.inlineStylesheets, stylesheets);
  const preloads = earlyHintsLinkHeader(facts.headLinks);
  const language = contentLanguage(facts.language);
  return {
    ...documentSecurityHeaders({ sha256 }, { ...policy, styleSha256 }),
    ...(preloads ? { Link: preloads } : {}),
    ...(language ? { "Content-Language": language } : {}),
  };
}

/**
 * A page's `Content-Language` (RFC 9110 8.5) is the language its `<html lang>` says it is written in: the
 * visitor's locale on a page rendered for them, the copy's on a shared or pre-rendered page. Only a tag's
 * characters pass (the value is the platform's own, from the product's locales; this keeps it so).
 */
function contentLanguage(lang: string | undefined): string | undefined {
  return lang && /^[A-Za-z0-9-]{1,64}$/.test(lang) ? lang : undefined;
}

/**
 * The policy's hashes for the inlined stylesheets of a document (`<style data-href>`, as React writes a
 * `<style href precedence>`), looked up in the build's stylesheets rather than hashed from the page: a
 * `<style>` whose text is not the build's file (or that names none) gets no hash, so the browser refuses it.
 */
export function inlineStyleHashes(hrefs: readonly string[], stylesheets: InlineStylesheets): string[] {
  const hashes: string[] = [];
  for (const href of hrefs) {
    const sha256 = stylesheets[href]?.sha256;
    if (sha256 !== undefined && !hashes.includes(sha256)) hashes.push(sha256);
  }
  return hashes;
}

/**
 * The `Link` response header of an HTML page: a `preload` of each stylesheet and a `modulepreload` of each
 * first-load module its `<head>` names, stylesheets first. Cloudflare keeps the `Link` headers of a page's
 * responses and sends them as 103 Early Hints to later visitors, before the page is rendered
 * (packages/edge-platform/docs/caching.md, "Preloads and Early Hints"; packages/edge-platform/docs/decisions/018-paint-first.md). Read from the rendered
 * `<head>`, so it names exactly what React Router and React put there; no second list of a page's files to
 * keep in step.
 *
 * Only built files under /assets/ are named: same origin, fingerprinted, so a hint can never fetch a stale
 * or foreign file. Entries that would take the header over PRELOAD_LINK_HEADER_MAX_BYTES are left out
 * (the stylesheets come first, so they are the last to go).
 */
export function earlyHintsLinkHeader(links: readonly HeadLink[]): string | undefined {
  const styles: string[] = [];
  const modules: string[] = [];
  for (const link of links) {
    const rel = link.rel.toLowerCase();
    const { href } = link;
    if (!isBuiltAsset(href)) continue;
    if (rel === "stylesheet") styles.push(`<${href}>; rel=preload; as=style`);
    else if (rel === "modulepreload") modules.push(`<${href}>; rel=modulepreload`);
  }
  let header = "";
  for (const entry of new Set([...styles, ...modules])) {
    const next = header ? `${header}, ${entry}` : entry;
    if (new TextEncoder().encode(next).byteLength > PRELOAD_LINK_HEADER_MAX_BYTES) break;
    header = next;
  }
  return header || undefined;
}

/** A root-relative path into the build's fingerprinted files, with nothing a header could be split on. */
function isBuiltAsset(href: string): boolean {
  return /^\/assets\/[\w.-]+$/.test(href);
}

// ---------------------------------------------------------------------------------------------------------
// Caching

/**
 * What an answer a route declared shareable leaves the Worker with: Workers Cache keeps it for the route's
 * `s-maxage` and serves it stale for its `stale-while-revalidate` while one request refreshes it, and for its
 * `stale-if-error` while refreshes fail (RFC 5861; policy.ts) (`Cloudflare-CDN-Cache-Control`, which Cloudflare reads before `Cache-Control` and removes before the
 * answer leaves; `max-age`, because `s-maxage` would switch stale serving off), tagged by the route's tags
 * and the page's path (`Cache-Tag`, also removed by Cloudflare). The browser keeps no copy
 * (`private, no-store`): the edge holds the only shared one, which a purge reaches.
 */
export function sharedPageHeaders(policy: SharedCachePolicy, pathname: string): Record<string, string> {
  const directives = [`max-age=${policy.sMaxAge}`];
  if (policy.staleWhileRevalidate) directives.push(`stale-while-revalidate=${policy.staleWhileRevalidate}`);
  // Always said, 0 included: Cloudflare may serve a stale copy through an error unless told `stale-if-error=0`.
  directives.push(`stale-if-error=${policy.staleIfError}`);
  return {
    "Cloudflare-CDN-Cache-Control": directives.join(", "),
    "Cache-Tag": [...policy.tags, pathTag(pathname)].join(","),
    "Cache-Control": PER_REQUEST_CACHE_CONTROL,
  };
}

/**
 * The headers of a page's copy for every visitor (worker/shared-pages.ts): as rendered, its policy by hash when
 * its nonce was taken out (`page`, the nonce-free HTML; the length changed with it), then the edge's and the
 * browser's caching.
 */
export async function sharedCopyHeaders(
  rendered: Headers,
  document: { page: string | undefined; policy: PolicyOptions; stylesheets: InlineStylesheets },
  cache: SharedCachePolicy,
  pathname: string,
): Promise<Headers> {
  const headers = new Headers(rendered);
  if (document.page !== undefined) {
    const facts = await scanDocument(document.page);
    const hashed = await hashedDocumentHeaders(facts, document.policy, document.stylesheets);
    for (const [name, value] of Object.entries(hashed)) headers.set(name, value);
    headers.delete("Content-Length");
  }
  for (const [name, value] of Object.entries(sharedPageHeaders(cache, pathname))) headers.set(name, value);
  return headers;
}

/**
 * The headers by which an answer tells a cache in front of the Worker to keep it (`Cloudflare-CDN-Cache-Control`
 * before `CDN-Cache-Control` before `Cache-Control`) and under which tags (`Cache-Tag`).
 */
const EDGE_CACHING_HEADERS = ["Cloudflare-CDN-Cache-Control", "CDN-Cache-Control", "Cache-Tag"] as const;

/** Whether an answer speaks to a cache in front of the Worker (its own edge caching headers). */
export function carriesEdgeCaching(headers: Headers): boolean {
  return EDGE_CACHING_HEADERS.some((name) => headers.has(name));
}

/**
 * What the Worker's default entrypoint (the gateway, worker/app.ts) answers, as it leaves: without the edge's
 * caching headers. A shared copy is stored by Workers Cache in front of the `SharedPages` entrypoint, keyed by
 * the page's URL and locale; the gateway hands it on, and the cache in front of the gateway itself (keyed by
 * the URL alone, were it on) must never keep it, or every language would get the first one's copy. The
 * browser's `Cache-Control` (`private, no-store` on a shared copy) is left as it is.
 */
export function withoutEdgeCaching(response: Response): Response {
  const present = EDGE_CACHING_HEADERS.filter((name) => response.headers.has(name));
  if (present.length === 0) return response;
  return withHeaderChanges(
    response,
    present.map((name) => [name, null]),
  );
}

/** An answer a route declared shareable, made for a request whose answer may not be shared: the browser's per-request caching, none of the edge's headers. */
export function perRequestCaching(response: Response): Response {
  return withHeaderChanges(response, [
    ["Cache-Control", PER_REQUEST_CACHE_CONTROL],
    ["Cache-Tag", null],
  ]);
}
