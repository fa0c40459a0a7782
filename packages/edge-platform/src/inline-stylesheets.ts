/**
 * Stylesheets inlined in the document (packages/edge-platform/docs/decisions/022-inline-critical-css.md): the first paint needs them,
 * and a `<style>` in the HTML costs no request. The strict policy allows each by the SHA-256 of its text,
 * computed when the build is made (vite/built-stylesheets-module.ts): the text is the same in every page of a build,
 * so one hash serves pages rendered per request, pre-rendered pages and the edge cache's copies alike.
 */

/** A build's stylesheets by the URL the browser would fetch them from: their text and its base64 SHA-256. */
export type InlineStylesheets = Readonly<Record<string, { readonly text: string; readonly sha256: string }>>;

/**
 * The policy's hashes for the inlined stylesheets of a document (`<style data-href>`, as React writes a
 * `<style href precedence>`), looked up in the build's stylesheets rather than hashed from the page: a
 * `<style>` whose text is not the build's file (or that names none) gets no hash, so the browser refuses it.
 */
export function inlineStyleHashes(html: string, stylesheets: InlineStylesheets): string[] {
  const headEnd = html.indexOf("</head>");
  const head = headEnd === -1 ? html : html.slice(0, headEnd);
  const hashes: string[] = [];
  for (const [, attributes = ""] of head.matchAll(/<style\b([^>]*)>/gi)) {
    const href = attributes.match(/\sdata-href="([^"\s]+)"/i)?.[1];
    const sha256 = href === undefined ? undefined : stylesheets[href]?.sha256;
    if (sha256 !== undefined && !hashes.includes(sha256)) hashes.push(sha256);
  }
  return hashes;
}
