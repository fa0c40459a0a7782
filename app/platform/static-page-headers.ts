import { preloadLinkHeader } from "./preload-links.ts";
import { BASE_SECURITY_HEADERS, documentSecurityHeaders, type PolicyOptions } from "./security-headers.ts";

/**
 * Pre-rendered pages cannot carry a per-request nonce, so their inline scripts are allowed by SHA-256.
 * The Worker serves them (a `run_worker_first` rule per static route, see static-routes.ts) and computes
 * the policy from the page it serves (workers/static-pages.ts), so the assets `_headers` file no longer
 * holds a rule per page and any number of pages keep a strict policy
 * (docs/decisions/010-static-page-csp-at-scale.md).
 */

/** Limits of Cloudflare's `_headers` file; rules beyond them are ignored, so the build fails instead. */
export const HEADERS_FILE_MAX_RULES = 100;
export const HEADERS_FILE_MAX_LINE_CHARS = 2_000;

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
 * Every header of a pre-rendered page: its inline scripts allowed by hash, each hash once, and the `Link`
 * preloads of its stylesheets and first-load modules (Early Hints, docs/decisions/018-paint-first.md).
 */
export async function staticPageHeaders(
  html: string,
  policy: PolicyOptions = {},
): Promise<Record<string, string>> {
  const sha256 = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
  const preloads = preloadLinkHeader(html);
  return { ...documentSecurityHeaders({ sha256 }, policy), ...(preloads ? { Link: preloads } : {}) };
}

/**
 * The Content-Type React Router gives page data it renders per request. Pre-rendered `.data`
 * files are assets, and wrangler knows no type for `.data`, so without this rule they are served without
 * one. One rule covers them all: `*` matches across `/`.
 */
export const PAGE_DATA_CONTENT_TYPE = "text/x-script";

/**
 * The `_headers` file for the build: the hand-written rules of public/_headers, the base set for every
 * asset and the type of pre-rendered page data. A fixed number of rules, whatever the number of pages. No
 * rule carries a policy: values of all matching rules are joined, and the Worker sets the pages' own.
 */
export function headersFileForAssets(handWritten: string): string {
  const rules = [
    rule("/*", BASE_SECURITY_HEADERS),
    rule("/*.data", { "Content-Type": PAGE_DATA_CONTENT_TYPE }),
  ];
  const file = `${handWritten.trimEnd()}\n\n# Written by the build (app/platform/static-page-headers.ts).\n${rules.join("\n")}\n`;
  checkHeadersFileLimits(file);
  return file;
}

function rule(path: string, headers: Readonly<Record<string, string>>): string {
  return [path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join("\n");
}

function checkHeadersFileLimits(file: string): void {
  const lines = file.split("\n").filter((line) => line.trim() && !line.trimStart().startsWith("#"));
  const ruleCount = lines.filter((line) => !/^\s/.test(line)).length;
  if (ruleCount > HEADERS_FILE_MAX_RULES) {
    throw new Error(
      `${ruleCount} _headers rules exceed Cloudflare's limit of ${HEADERS_FILE_MAX_RULES}: ` +
        "public/_headers has too many hand-written rules.",
    );
  }
  const long = lines.find((line) => line.length > HEADERS_FILE_MAX_LINE_CHARS);
  if (long) {
    throw new Error(
      `A _headers line exceeds ${HEADERS_FILE_MAX_LINE_CHARS} characters: ${long.slice(0, 80)}...`,
    );
  }
}
