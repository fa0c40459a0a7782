import { gzipSync } from "node:zlib";

export type FirstLoadFile = { url: string; rawBytes: number; gzipBytes: number; hasSentry: boolean };
export type FirstLoad = { path: string; files: FirstLoadFile[]; rawBytes: number; gzipBytes: number };

/** Code of the Sentry SDK, as it appears in a bundle. */
const SENTRY_CODE = /__SENTRY__|sentry\.javascript|@sentry\//;

/**
 * The JavaScript a first visit to `path` loads before it can run: every `<script src>`, every
 * `<link rel="modulepreload">` and every inline script of its HTML, raw and gzip -9.
 */
export async function measureFirstLoad(origin: URL, path: string): Promise<FirstLoad> {
  const html = await (await fetch(new URL(path, origin))).text();
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (match[1]) urls.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g))
    if (match[1]) urls.add(match[1]);
  const files: FirstLoadFile[] = [];
  for (const url of urls)
    files.push(measure(url, Buffer.from(await (await fetch(new URL(url, origin))).arrayBuffer())));
  const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => match[1] ?? "",
  );
  files.push(measure("(inline scripts)", Buffer.from(inline.join("\n"))));
  return {
    path,
    files,
    rawBytes: files.reduce((sum, file) => sum + file.rawBytes, 0),
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}

function measure(url: string, body: Buffer): FirstLoadFile {
  return {
    url,
    rawBytes: body.byteLength,
    gzipBytes: gzipSync(body, { level: 9 }).byteLength,
    hasSentry: SENTRY_CODE.test(body.toString("utf8")),
  };
}
