import { BASE_SECURITY_HEADERS, NON_DOCUMENT_SECURITY_HEADERS } from "../headers.ts";

/** Limits of Cloudflare's `_headers` file; rules beyond them are ignored, so the build fails instead. */
export const HEADERS_FILE_MAX_RULES = 100;
const HEADERS_FILE_MAX_LINE_CHARS = 2_000;

/**
 * The Content-Type React Router gives page data it renders per request. Pre-rendered `.data`
 * files are assets, and wrangler knows no type for `.data`, so without this rule they are served without
 * one. One rule covers them all: `*` matches across `/`.
 */
const PAGE_DATA_CONTENT_TYPE = "text/x-script";

/**
 * The built files under /assets/ (Vite's `build.assetsDir`) carry a content hash in their name: cached for a
 * year, never revalidated. Everything else (pre-rendered HTML, .data, robots.txt) keeps Workers static
 * assets' default, `public, max-age=0, must-revalidate` with an ETag: always revalidated, 304 when unchanged
 * (packages/edge-platform/docs/caching.md).
 */
const HASHED_ASSETS_RULE = "/assets/*";
const HASHED_ASSETS_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * The `_headers` file for the build: the product's own rules (public/_headers, optional), the hashed assets'
 * policy, for every asset the base set and the policy under which nothing runs (an SVG can carry script; a
 * text file may be opened as a document), and the type of pre-rendered page data. A fixed number of rules,
 * whatever the number of pages.
 * Pre-rendered pages keep their own policy: the Worker serves them and sets (replaces) their headers
 * (packages/edge-platform/src/worker/static-pages.ts, packages/edge-platform/docs/decisions/019-probe-findings.md).
 */
export function headersFileForAssets(handWritten = ""): string {
  if (handWritten.split("\n").some((line) => line.trim() === HASHED_ASSETS_RULE))
    throw new Error(
      `public/_headers: the platform writes the ${HASHED_ASSETS_RULE} rule (${HASHED_ASSETS_CACHE_CONTROL}); remove the product's`,
    );
  const rules = [
    rule(HASHED_ASSETS_RULE, { "Cache-Control": HASHED_ASSETS_CACHE_CONTROL }),
    rule("/*", { ...BASE_SECURITY_HEADERS, ...NON_DOCUMENT_SECURITY_HEADERS }),
    rule("/*.data", { "Content-Type": PAGE_DATA_CONTENT_TYPE }),
  ];
  const own = handWritten.trim() ? `${handWritten.trimEnd()}\n\n` : "";
  const file = `${own}# Written by the build (packages/edge-platform/src/vite/static-page-headers.ts).\n${rules.join("\n")}\n`;
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
