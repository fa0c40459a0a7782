import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { Plugin, ResolvedConfig } from "vite";
import type { InlineStylesheets } from "../built-stylesheets.ts";

/** The module the renderer and the Worker read the build's stylesheets from (packages/edge-platform/src/built-stylesheets.ts). */
const INLINE_STYLESHEETS_MODULE = "virtual:edge-platform/inline-stylesheets";
const RESOLVED = `\0${INLINE_STYLESHEETS_MODULE}`;

/**
 * The text and SHA-256 of each stylesheet of a browser build, by the URL the browser would fetch it from:
 * what a document inlines as `<style>` and what its policy allows by hash (packages/edge-platform/docs/decisions/022-inline-critical-css.md).
 * A stylesheet whose text has `<style` or `</style` (in any case) is left out: React rewrites those inside a
 * `<style>` element (react-dom's `styleRegex`), so the bytes served (and their hash) would no longer be the
 * file's. Vite's minifier drops comments, where such text usually is; `notInlinable` names what is left out.
 */
export function inlinableStylesheets(
  base: string,
  files: Iterable<[fileName: string, text: string]>,
  notInlinable: (fileName: string) => void = () => {},
): InlineStylesheets {
  const stylesheets: Record<string, { text: string; sha256: string }> = {};
  for (const [fileName, text] of files) {
    if (!fileName.endsWith(".css")) continue;
    if (REWRITTEN_BY_REACT.test(text)) {
      notInlinable(fileName);
      continue;
    }
    stylesheets[`${base}${fileName}`] = { text, sha256: createHash("sha256").update(text).digest("base64") };
  }
  return stylesheets;
}

/** What React's renderer changes in the text of a `<style>` element. */
const REWRITTEN_BY_REACT = /<\/?style/i;

/**
 * The browser build's stylesheets handed to the Worker's build as INLINE_STYLESHEETS_MODULE, read from what
 * the browser build wrote: React Router builds the browser first (the server needs its manifest), and the
 * files as written are what the assets serve (Vite still edits a stylesheet after generateBundle). The
 * browser's own build gets an empty module: the text of a stylesheet never enters the JavaScript a browser
 * loads. Vite's servers (`npm run dev`, React Router's child compiler) get an empty one too: there the
 * document links its stylesheets (document.tsx).
 */
export function builtStylesheetsModule(): Plugin {
  return {
    name: "edge-platform:built-stylesheets-module",
    resolveId(id) {
      return id === INLINE_STYLESHEETS_MODULE ? RESOLVED : undefined;
    },
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const { config } = this.environment;
      const client = config.environments.client;
      const served =
        this.environment.name === "client" || config.command !== "build" || !client
          ? {}
          : inlinableStylesheets(
              config.base,
              await builtStylesheets(config.root, client, config.publicDir),
              (fileName) =>
                this.warn(
                  `${fileName} cannot be inlined: its text has "<style", which React rewrites inside a <style> element ` +
                    "(a page whose document inlines it fails to render). Remove it, or write it as \\3c style in a string.",
                ),
            );
      return `export const INLINE_STYLESHEETS = ${JSON.stringify(served)};`;
    },
  };
}

/**
 * The stylesheets the browser build wrote into its output directory, by file name: those under its
 * `assetsDir`, where Vite writes them, except the copies of the files in public/.
 */
async function builtStylesheets(
  root: string,
  client: ResolvedConfig["environments"][string],
  publicDir: string,
): Promise<[fileName: string, text: string][]> {
  const outDir = resolve(root, client.build.outDir);
  const names = await readdir(join(outDir, client.build.assetsDir), { recursive: true }).catch(() => []);
  const fileNames = names
    .map((name) => join(client.build.assetsDir, name).split(sep).join("/"))
    .filter((fileName) => fileName.endsWith(".css") && !(publicDir && existsSync(join(publicDir, fileName))))
    .sort();
  return Promise.all(
    fileNames.map(
      async (fileName) => [fileName, await readFile(join(outDir, fileName), "utf8")] as [string, string],
    ),
  );
}
