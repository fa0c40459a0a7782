import { type InlineStylesheets, inlineStyleHashes } from "./inline-stylesheets.ts";
import { preloadLinkHeader } from "./preload-links.ts";
import { documentSecurityHeaders, type PolicyOptions } from "./security-headers.ts";

/**
 * Pre-rendered pages cannot carry a per-request nonce, so their inline scripts are allowed by SHA-256.
 * The Worker serves them (a `run_worker_first` rule per static route, see vite/static-routes.ts) and computes
 * the policy from the page it serves (packages/edge-platform/src/worker/static-pages.ts), so the assets `_headers` file no longer
 * holds a rule per page and any number of pages keep a strict policy
 * (packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md).
 */

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The text of every inline `<script>` of a document, in order (scripts with `src` are not inline). */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .filter(([, attributes = ""]) => !/\ssrc\s*=/i.test(` ${attributes}`))
    .map(([, , text = ""]) => text);
}

/** Base64 SHA-256 of a script's text, as a CSP hash source wants it. */
export async function scriptHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/**
 * Every header of a pre-rendered page (or an edge-cached copy): its inline scripts allowed by hash, each hash
 * once, its inlined stylesheets by the hashes of the build's files (`stylesheets`, built-stylesheets.ts;
 * packages/edge-platform/docs/decisions/022-inline-critical-css.md), and the `Link` preloads of its linked stylesheets and
 * first-load modules (Early Hints, packages/edge-platform/docs/decisions/018-paint-first.md).
 */
export async function staticPageHeaders(
  html: string,
  policy: PolicyOptions = {},
  stylesheets: InlineStylesheets = {},
): Promise<Record<string, string>> {
  const sha256 = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
  const styleSha256 = inlineStyleHashes(html, stylesheets);
  const preloads = preloadLinkHeader(html);
  return {
    ...documentSecurityHeaders({ sha256 }, { ...policy, styleSha256 }),
    ...(preloads ? { Link: preloads } : {}),
  };
}
