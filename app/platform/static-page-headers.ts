import { BASE_SECURITY_HEADERS, documentOnlyHeaders, type PolicyOptions } from "./security-headers.ts";

/**
 * Pre-rendered pages are served as static assets: the Worker never sees them, so their headers come from
 * the assets `_headers` file, written at build time (docs/decisions/006-security-headers.md). They cannot
 * carry a per-request nonce, so each page's inline scripts are allowed by their SHA-256.
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

export type StaticPage = { path: string; html: string };

/**
 * The Content-Type React Router gives page data it renders per request. Pre-rendered `.data`
 * files are assets, and wrangler knows no type for `.data`, so without this rule they are served without
 * one. One rule covers them all (the `_headers` file has room for 100): `*` matches across `/`.
 */
export const PAGE_DATA_CONTENT_TYPE = "text/x-script";

/**
 * The `_headers` file for the build: the hand-written rules of public/_headers, the base set for every
 * asset, the type of pre-rendered page data, then each page's document headers. Values of all matching rules are joined, so only the page
 * rules carry a policy (two policies would both be enforced).
 */
export async function headersFileWithStaticPages(
  handWritten: string,
  pages: readonly StaticPage[],
  policy: PolicyOptions = {},
): Promise<string> {
  const rules = [
    rule("/*", BASE_SECURITY_HEADERS),
    rule("/*.data", { "Content-Type": PAGE_DATA_CONTENT_TYPE }),
  ];
  for (const { path, html } of pages) {
    // `:name` and `*` are placeholders in `_headers` paths; a page's rule must match that page only.
    if (!path.startsWith("/") || /[:*\s]/.test(path))
      throw new Error(`Cannot write a _headers rule for ${path}`);
    const sha256 = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
    rules.push(rule(path, documentOnlyHeaders({ sha256 }, policy)));
  }
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
        "serve some static pages through the Worker (docs/decisions/006-security-headers.md).",
    );
  }
  const long = lines.find((line) => line.length > HEADERS_FILE_MAX_LINE_CHARS);
  if (long) {
    throw new Error(
      `A _headers line exceeds ${HEADERS_FILE_MAX_LINE_CHARS} characters: ${long.slice(0, 80)}...`,
    );
  }
}
