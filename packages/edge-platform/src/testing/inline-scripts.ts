/**
 * The text of every inline `<script>` of a document, in order (scripts with `src` are not inline), for tests
 * that compute the hashes a page's policy must allow. Read on its own, by pattern, from a page React wrote:
 * an oracle apart from the Worker's reading (document-scan.ts, with workerd's HTMLRewriter), which Node has
 * not got.
 */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes = ""]) => !/\ssrc\s*=/i.test(` ${attributes}`))
    .map(([, , text = ""]) => text);
}

/**
 * The text of every inline `<style>` of a document, in order: what a page's policy allows by hash in `style-src`
 * (the platform's stylesheet and the product's root one, inlined in every page; docs/decisions/022-inline-critical-css.md).
 */
export function inlineStyles(html: string): string[] {
  return [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, text = ""]) => text);
}
