/**
 * What the Worker reads from a whole, buffered document (a pre-rendered page, a shared page's copy) to write
 * its headers (headers.ts): the text of each inline script (allowed by hash), the stylesheets its `<head>`
 * inlines (allowed by the build's hashes) and the stylesheets and modules its `<head>` links (the `Link`
 * header for Early Hints). Pages rendered per request are read by the renderer (rendered-head.ts).
 * Read with the runtime's HTML parser, HTMLRewriter, so markup is read as a browser reads it (comments, raw
 * text, attributes in any order or quoting), not matched by patterns. It imports nothing, so its test loads
 * it into workerd as it is (tests/unit/document-scan.test.ts).
 */

export type HeadLink = { rel: string; href: string };

export type DocumentFacts = {
  /** `<html lang>`: the language the page is written in (its `Content-Language`). */
  language?: string;
  /** The text of every inline `<script>` (one without `src`), in document order, as the browser hashes it. */
  inlineScripts: string[];
  /** The `data-href` of each `<style>` in `<head>`: React writes a `<style href precedence>` so. */
  inlineStylesheets: string[];
  /** Each `<link>` of `<head>` with a `rel` and an `href`, in order. */
  headLinks: HeadLink[];
};

/** Reads a whole document (or as much of it as there is). */
export async function scanDocument(html: string): Promise<DocumentFacts> {
  const facts: DocumentFacts = { inlineScripts: [], inlineStylesheets: [], headLinks: [] };
  const rewriter = new HTMLRewriter()
    .on("html[lang]", {
      element(html) {
        facts.language = html.getAttribute("lang") ?? undefined;
      },
    })
    .on("script:not([src])", {
      element() {
        facts.inlineScripts.push("");
      },
      text(chunk) {
        facts.inlineScripts[facts.inlineScripts.length - 1] += chunk.text;
      },
    })
    .on("head style[data-href]", {
      element(style) {
        facts.inlineStylesheets.push(style.getAttribute("data-href") ?? "");
      },
    })
    .on("head link[rel][href]", {
      element(link) {
        facts.headLinks.push({ rel: link.getAttribute("rel") ?? "", href: link.getAttribute("href") ?? "" });
      },
    });
  await rewriter.transform(new Response(html)).arrayBuffer();
  return facts;
}
