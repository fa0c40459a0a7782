/**
 * The security headers of every response, as pure functions shared by the renderer
 * (entry.server.tsx: pages rendered per request, with a nonce), the Worker (packages/edge-platform/src/worker/app.ts: everything
 * else it answers, and pre-rendered pages, allowed by hash: static-page-policy.ts, packages/edge-platform/src/worker/static-pages.ts)
 * and the build's assets `_headers` file (static files: vite/static-page-headers.ts).
 */

/** Headers every response carries, documents or not (a JS file, a `.data` payload, a 403). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Two years, the HSTS preload list's minimum; browsers ignore it on plain-http (local) origins.
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

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
   * The SHA-256 of each stylesheet the page inlines as `<style>` (inline-stylesheets.ts), for `style-src`:
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

/** Every header of an HTML page. */
export function documentSecurityHeaders(
  scripts: ScriptAllowance,
  options?: PolicyOptions,
): Record<string, string> {
  return { ...BASE_SECURITY_HEADERS, ...documentOnlyHeaders(scripts, options) };
}

/** The headers a page has on top of BASE_SECURITY_HEADERS. */
export function documentOnlyHeaders(
  scripts: ScriptAllowance,
  options?: PolicyOptions,
): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(scripts, options),
    "Permissions-Policy": PERMISSIONS_POLICY,
    // A page this app opens, or that opens it, gets no handle on its window.
    "Cross-Origin-Opener-Policy": "same-origin",
    // frame-ancestors says the same to browsers that read CSP; this is for those that do not.
    "X-Frame-Options": "DENY",
  };
}

/**
 * The headers the Worker adds to a response on its way out: the base set when missing, and the
 * locked-down policy when the renderer did not set a page policy (every non-HTML answer).
 */
export function missingSecurityHeaders(headers: Headers): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) {
    if (!headers.has(name)) missing[name] = value;
  }
  if (!headers.has("Content-Security-Policy")) {
    for (const [name, value] of Object.entries(NON_DOCUMENT_SECURITY_HEADERS)) {
      if (!headers.has(name)) missing[name] = value;
    }
  }
  return missing;
}
