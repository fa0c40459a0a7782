/**
 * node bench/first-paint/variants.ts <dir> [path]: saves this build's document of `path` (default /now) and
 * its headers in <dir>, with copies that each change one thing, for a controlled experiment:
 * `node bench/first-paint.ts --documents <dir> --paths /now ...` measures them all, interleaved, with the
 * live app and the anchors. `original` is the saved document unchanged (the control).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveBuild } from "edge-platform/local-server";

const [dir = "/tmp/first-paint-documents", path = "/now"] = process.argv.slice(2);
const app = await serveBuild({ onLog: () => {} });
let html: string;
let headers: Record<string, string>;
try {
  const response = await fetch(new URL(path, app.url), { headers: { "accept-encoding": "identity" } });
  html = await response.text();
  headers = Object.fromEntries(response.headers);
} finally {
  await app.close();
}

/** Removes what `pattern` matches, and fails if it matches nothing (a variant must change something). */
function without(text: string, pattern: RegExp): string {
  if (!pattern.test(text)) throw new Error(`nothing matches ${pattern}`);
  return text.replace(pattern, "");
}
/** Replaces what `pattern` matches, and fails if it matches nothing. */
function changed(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`nothing matches ${pattern}`);
  return text.replace(pattern, replacement);
}
const STYLE = /<style[^>]*>[^<]*<\/style>/;
const CLASSIC_SCRIPTS = /<script nonce="[^"]+">[\s\S]*?<\/script>/g;
const MODULEPRELOADS = /<link rel="modulepreload"[^>]*\/>/g;
const LOW_PRIORITY = '<link rel="modulepreload" fetchpriority="low"';
/** The modules React Router's inline module script imports statically (the manifest and the route modules). */
const MODULE_SCRIPT_IMPORTS = [
  ...(html.match(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? "").matchAll(
    /(?:import|from)\s+"([^"]+)"/g,
  ),
].map(([, url]) => url ?? "");
if (MODULE_SCRIPT_IMPORTS.length === 0)
  throw new Error("no module script with static imports in the document");
/** Whether a preload (a `<link>` or a `Link` header entry) is of a module the module script imports. */
const namedByModuleScript = (preload: string) => MODULE_SCRIPT_IMPORTS.some((url) => preload.includes(url));

/**
 * The document with its inline stylesheet changed, and the policy's `style-src` hash of it with it: the
 * policy allows that `<style>` by the SHA-256 of its text (decision 022), and a changed text under the old
 * hash would be refused, leaving the page unstyled.
 */
function restyled(pattern: RegExp, replacement: string): [string, Record<string, string | null>] {
  const [element, open = "", text = "", close = ""] = html.match(/(<style[^>]*>)([^<]*)(<\/style>)/) ?? [];
  if (!element) throw new Error("no inline stylesheet in the document");
  const policy = headers["content-security-policy"];
  const hashOf = (css: string) => `'sha256-${createHash("sha256").update(css).digest("base64")}'`;
  if (!policy?.includes(hashOf(text)))
    throw new Error("the policy does not allow the inline stylesheet by its hash");
  const css = changed(text, pattern, replacement);
  return [
    html.replace(element, `${open}${css}${close}`),
    { "content-security-policy": policy.replace(hashOf(text), hashOf(css)) },
  ];
}

/** 2 KiB of random base64: gzip cannot shrink it below about 1.5 KiB. */
const PADDING = randomBytes(1536).toString("base64");

/** name: [document, headers to change (null removes)] */
const variants: Record<string, [string, Record<string, string | null>?]> = {
  original: [html],
  "no-coop": [html, { "cross-origin-opener-policy": null }],
  "no-link-header": [html, { link: null }],
  "no-csp": [html, { "content-security-policy": null }],
  "small-headers": [
    html,
    {
      link: null,
      "permissions-policy": null,
      "strict-transport-security": null,
      "x-frame-options": null,
      "cf-cache-status": null,
    },
  ],
  "no-modulepreload": [without(html, MODULEPRELOADS)],
  // Where the requests the commit starts go, against the paint and the page's readiness: no preload at all
  // (the module script in the body finds its imports as it runs), the same preloads at low priority, and
  // preloads only of what the module script does not name (what it imports statically it finds when parsed).
  "no-preloads": [without(html, MODULEPRELOADS), { link: null }],
  "preloads-low": [changed(html, /<link rel="modulepreload"/g, LOW_PRIORITY), { link: null }],
  "link-header-low": [
    changed(html, /<link rel="modulepreload"/g, LOW_PRIORITY),
    { link: headers.link?.replaceAll("rel=modulepreload", "rel=modulepreload; fetchpriority=low") ?? null },
  ],
  "preloads-deep-only": [
    html.replace(MODULEPRELOADS, (link) => (namedByModuleScript(link) ? "" : link)),
    {
      link:
        headers.link
          ?.split(", ")
          .filter((entry) => !namedByModuleScript(entry))
          .join(", ") ?? null,
    },
  ],
  "no-icon": [without(html, /<link[^>]*rel="icon"[^>]*\/>/)],
  "no-inline-css": [without(html, STYLE)],
  "css-no-color-scheme": restyled(/color-scheme:light dark;/, ""),
  "css-no-font-stack": restyled(/font-family:system-ui[^;]*;/, ""),
  "css-sans-serif": restyled(/font-family:system-ui[^;]*;/, "font-family:sans-serif;"),
  "css-no-overflow-wrap": restyled(/overflow-wrap:anywhere;?/, ""),
  "css-no-clip-path": restyled(/clip-path:inset\(50%\)/, "clip:rect(0 0 0 0)"),
  "no-skip-link": [without(html, /<a href="#main" class="skip-link">[^<]*<\/a>/)],
  "no-route-announcer": [without(html, /<p id="route-announcer"[^>]*><\/p>/)],
  "no-header-nav": [without(html, /<header class="site-header">[\s\S]*?<\/header>/)],
  // The platform's document around a page as bare as the anchors' (no stylesheet, no skip link, site header,
  // controls or announcer): what is left of the difference when the product's page weighs what theirs does.
  "anchor-like-page": [
    [
      STYLE,
      /<a href="#main" class="skip-link">[^<]*<\/a>/,
      /<header class="site-header">[\s\S]*?<\/header>/,
      /<section class="navigation-controls"[\s\S]*?<\/section>/,
      /<p id="route-announcer"[^>]*><\/p>/,
    ].reduce(
      (document, pattern) => (pattern.test(document) ? document.replace(pattern, "") : document),
      html,
    ),
  ],
  // What a kilobyte on the wire costs the paint: 2 KiB that no compression shrinks, in the headers (HTTP/1.1
  // sends them as they are) or at the start of the head.
  "pad-headers-2k": [html, { "x-padding": PADDING }],
  "pad-head-2k": [changed(html, /<head>/, `<head><!--${PADDING}-->`)],
};
// Script changes only where the policy allows any script with the nonce (a page rendered per request): a
// pre-rendered page's policy lists each script's hash, and a changed script would not run at all.
if (headers["content-security-policy"]?.includes("'nonce-"))
  Object.assign(variants, {
    "no-scroll-restoration": [without(html, /<script nonce="[^"]+">\(\(storageKey\) =>[\s\S]*?<\/script>/)],
    "no-classic-scripts": [without(html, CLASSIC_SCRIPTS)],
    "no-scripts": [without(without(html, CLASSIC_SCRIPTS), /<script[^>]*type="module"[\s\S]*?<\/script>/)],
  });

mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "headers.json"), JSON.stringify(headers, null, 2));
for (const [name, [document, changed]] of Object.entries(variants)) {
  writeFileSync(join(dir, `${name}.html`), document);
  if (changed) writeFileSync(join(dir, `${name}.headers.json`), JSON.stringify(changed));
}
console.log(`${Object.keys(variants).length} documents of ${path} in ${dir}`);
