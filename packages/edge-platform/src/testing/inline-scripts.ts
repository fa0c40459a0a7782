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
