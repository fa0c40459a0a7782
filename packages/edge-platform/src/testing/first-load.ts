import { existsSync, realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { decode } from "@jridgewell/sourcemap-codec";

export { DEFAULT_FIRST_LOAD_BUDGET_BYTES } from "../vite/app-under-build.ts";

export type FirstLoadFile = { url: string; rawBytes: number; gzipBytes: number; hasSentry: boolean };
export type FirstLoad = { path: string; files: FirstLoadFile[]; rawBytes: number; gzipBytes: number };

/** Code of the Sentry SDK, as it appears in a bundle. */
const SENTRY_CODE = /__SENTRY__|sentry\.javascript|@sentry\//;

/**
 * The JavaScript a first visit to `path` loads before it can run: every `<script src>`, every
 * `<link rel="modulepreload">` and every inline script of its HTML, raw and gzip -9.
 */
export async function measureFirstLoad(origin: URL, path: string): Promise<FirstLoad> {
  const page = await fetch(new URL(path, origin));
  const html = await page.text();
  // A page that is not there (its route deleted) would measure the 404 page under its name: say so instead.
  if (page.status !== 200)
    throw new Error(`${path} answered ${page.status}, not 200: nothing of it to measure`);
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

/** Who a module of the first load belongs to: the platform, the app under test, or a dependency (by name). */
export type FirstLoadOwner = "platform" | "app" | string;

export type FirstLoadModule = { source: string; owner: FirstLoadOwner; rawBytes: number };

/**
 * Where the raw bytes of a first load come from, module by module, read from the build's source maps (kept
 * outside the assets, `<build>/sourcemaps/client`, packages/edge-platform/docs/decisions/009-source-maps.md): each generated
 * segment's bytes go to the original source it maps to; bytes no segment maps (and inline scripts) are
 * "(unmapped)". What a failing first-load budget prints, so it names what grew.
 */
export async function firstLoadSources(
  origin: URL,
  path: string,
  buildDirectory: string,
): Promise<FirstLoadModule[]> {
  const bytes = new Map<string, number>();
  const add = (source: string, count: number) => bytes.set(source, (bytes.get(source) ?? 0) + count);
  const html = await (await fetch(new URL(path, origin))).text();
  for (const url of scriptUrls(html)) {
    const code = await (await fetch(new URL(url, origin))).text();
    const file = join(buildDirectory, "client", new URL(url, origin).pathname);
    // The maps are kept outside the assets, but name their sources from where the bundler wrote them.
    const mapFile = join(buildDirectory, "sourcemaps", "client", `${new URL(url, origin).pathname}.map`);
    const map = JSON.parse(await readFile(mapFile, "utf8").catch(() => '{"sources":[],"mappings":""}')) as {
      sources: string[];
      mappings: string;
    };
    const lines = code.split("\n");
    decode(map.mappings).forEach((segments, line) => {
      const text = lines[line] ?? "";
      segments.forEach((segment, index) => {
        const end = segments[index + 1]?.[0] ?? text.length;
        const length = Buffer.byteLength(text.slice(segment[0], end));
        const source = segment.length > 1 ? map.sources[segment[1] ?? 0] : undefined;
        add(
          source === undefined ? "(unmapped)" : resolve(dirname(file), source.split("?")[0] ?? source),
          length,
        );
      });
      if (segments.length === 0 || (segments[0]?.[0] ?? 0) > 0)
        add("(unmapped)", Buffer.byteLength(text.slice(0, segments[0]?.[0] ?? text.length)));
    });
  }
  return [...bytes]
    .map(([source, rawBytes]) => ({
      source: sourcePath(source),
      owner: ownerOf(source),
      rawBytes,
    }))
    .sort((a, b) => b.rawBytes - a.rawBytes);
}

/** A readable report of a first load by owner, then its largest modules. */
export function firstLoadReport(modules: FirstLoadModule[], largest = 15): string {
  const byOwner = new Map<string, number>();
  for (const { owner, rawBytes } of modules) byOwner.set(owner, (byOwner.get(owner) ?? 0) + rawBytes);
  const owners = [...byOwner].sort((a, b) => b[1] - a[1]).map(([owner, raw]) => `  ${owner}: ${raw} B raw`);
  const top = modules.slice(0, largest).map(({ source, rawBytes }) => `  ${rawBytes} B  ${source}`);
  return ["First load by owner:", ...owners, `Largest modules:`, ...top].join("\n");
}

function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (match[1]) urls.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g))
    if (match[1]) urls.add(match[1]);
  return [...urls];
}

/** The platform's own files, wherever the package is (a workspace, node_modules). */
const PLATFORM_DIRECTORY = realpathSync(resolve(import.meta.dirname, "../.."));

/** A source as a path from the current directory (the project), or "(unmapped)". */
function sourcePath(source: string): string {
  return source === "(unmapped)" ? source : relative(process.cwd(), source);
}

function ownerOf(source: string): FirstLoadOwner {
  if (source === "(unmapped)") return source;
  const dependency = /(?:^|[\\/])node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(source);
  if (dependency?.[1] === "edge-platform") return "platform";
  if (dependency?.[1]) return dependency[1].replace("\\", "/");
  const fromPlatform = relative(PLATFORM_DIRECTORY, existsSync(source) ? realpathSync(source) : source);
  return fromPlatform.startsWith("..") || isAbsolute(fromPlatform) ? "app" : "platform";
}
