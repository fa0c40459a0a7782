import type { EntryContext } from "react-router";
import { PRELOAD_LINK_HEADER_MAX_BYTES } from "./constants.ts";
import { streamWithPeeked } from "./http/peeked-stream.ts";

/**
 * The `Link` response header of an HTML page: a `preload` of each stylesheet and a `modulepreload` of each
 * first-load module its `<head>` names, stylesheets first. Cloudflare keeps the `Link` headers of a page's
 * responses and sends them as 103 Early Hints to later visitors, before the page is rendered
 * (packages/edge-platform/docs/caching.md, "Preloads and Early Hints"; packages/edge-platform/docs/decisions/018-paint-first.md). Read from the rendered
 * `<head>`, so it names exactly what React Router and React put there; no second list of a page's files to
 * keep in step.
 *
 * Only built files under /assets/ are named: same origin, fingerprinted, so a hint can never fetch a stale
 * or foreign file. Entries that would take the header over PRELOAD_LINK_HEADER_MAX_BYTES are left out
 * (the stylesheets come first, so they are the last to go).
 */
export function preloadLinkHeader(html: string): string | undefined {
  const headEnd = html.indexOf("</head>");
  const head = headEnd === -1 ? html : html.slice(0, headEnd);
  const styles: string[] = [];
  const modules: string[] = [];
  for (const [tag] of head.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, "rel")?.toLowerCase();
    const href = attribute(tag, "href");
    if (!href || !isBuiltAsset(href)) continue;
    if (rel === "stylesheet") styles.push(`<${href}>; rel=preload; as=style`);
    else if (rel === "modulepreload") modules.push(`<${href}>; rel=modulepreload`);
  }
  let header = "";
  for (const entry of new Set([...styles, ...modules])) {
    const next = header ? `${header}, ${entry}` : entry;
    if (new TextEncoder().encode(next).byteLength > PRELOAD_LINK_HEADER_MAX_BYTES) break;
    header = next;
  }
  return header || undefined;
}

/** A root-relative path into the build's fingerprinted files, with nothing a header could be split on. */
function isBuiltAsset(href: string): boolean {
  return /^\/assets\/[\w.-]+$/.test(href);
}

function attribute(tag: string, name: string): string | undefined {
  return tag.match(new RegExp(`\\s${name}="([^"]*)"`, "i"))?.[1];
}

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
