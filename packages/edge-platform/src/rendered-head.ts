import type { EntryContext } from "react-router";
import type { DocumentFacts } from "./document-scan.ts";
import { streamWithPeeked } from "./http/peeked-stream.ts";

/** React writes `<head>` in its first flush; this bounds the wait for `</head>` on a page that has none. */
const MAX_HEAD_BYTES = 65_536;

/**
 * The start of a rendered document up to its `</head>` (or the first 64 KB), and a stream that still yields
 * every byte: headers must be set before the body is sent, and React has already rendered the shell by
 * the time `renderToReadableStream` resolves, so this waits for nothing that was not already there.
 */
export async function splitHead(
  body: ReadableStream<Uint8Array>,
): Promise<{ head: string; body: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const chunks: Uint8Array[] = [];
  let head = "";
  let bytes = 0;
  while (!head.includes("</head>") && bytes < MAX_HEAD_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    head += decoder.decode(value, { stream: true });
  }
  return { head, body: streamWithPeeked(chunks, reader) };
}

/**
 * The stylesheets a route imports (`import "./page.css"`) for the matched routes, in route order. React
 * Router links them in place in `<head>`, after the modulepreload links React hoists ahead of everything
 * else there; the renderer preloads them first (entry.server.tsx) so their fetch starts before the modules'.
 */
export function routeStylesheets(context: Pick<EntryContext, "manifest" | "staticHandlerContext">): string[] {
  const hrefs = context.staticHandlerContext.matches.flatMap(
    ({ route }) => context.manifest.routes[route.id]?.css ?? [],
  );
  return [...new Set(hrefs)];
}

/**
 * What the renderer's headers need of the `<head>` it just rendered: its inlined stylesheets (`<style
 * data-href>`) and its links. Read by hand, not with HTMLRewriter as buffered pages are (document-scan.ts):
 * this runs on every page rendered per request, on markup React itself wrote (double-quoted attributes, no
 * comments in `<head>`), and the parser's streams cost a dynamic page a tenth of the Worker's throughput
 * (packages/edge-platform/docs/PERFORMANCE.md, "The Worker's throughput"). The only hand-written reading
 * kept, for that reason alone.
 */
export function readRenderedHead(
  head: string,
): Pick<DocumentFacts, "language" | "inlineStylesheets" | "headLinks"> {
  const end = head.indexOf("</head>");
  const part = end === -1 ? head : head.slice(0, end);
  const html = part.match(/<html\b[^>]*>/i)?.[0];
  return {
    language: html === undefined ? undefined : attribute(html, "lang"),
    inlineStylesheets: [...part.matchAll(/<style\b[^>]*>/gi)].flatMap(
      ([tag]) => attribute(tag, "data-href") ?? [],
    ),
    headLinks: [...part.matchAll(/<link\b[^>]*>/gi)].flatMap(([tag]) => {
      const rel = attribute(tag, "rel");
      const href = attribute(tag, "href");
      return rel !== undefined && href !== undefined ? [{ rel, href }] : [];
    }),
  };
}

function attribute(tag: string, name: string): string | undefined {
  return tag.match(new RegExp(`\\s${name}="([^"]*)"`, "i"))?.[1];
}
