import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { DEBUG_ID_PLACEHOLDER, debugIdOfBundle } from "edge-platform/testing";
import { describe, expect, test } from "vitest";

// packages/edge-platform/docs/decisions/009-source-maps.md: every built JavaScript file of the browser (build/client, the public
// assets) and of the Worker (build/server) registers a debug ID, its map in build/sourcemaps carries the same
// one, and no map is left where it would be deployed. Reads the build (`npm run build` first).

const BUILD = resolve(import.meta.dirname, "../../build");
const OUTPUTS = ["client", "server"] as const;
/** Rolldown's runtime helpers: Rolldown writes no map for them, so they get no debug ID. */
const ROLLDOWN_RUNTIME = /(^|\/)rolldown-runtime-[\w-]+\.js$/;
/** React Router's route manifest: data (`window.__reactRouterManifest = {...}`) it writes itself, no bundle. */
const ROUTE_MANIFEST = /^assets\/manifest-[0-9a-f]+\.js$/;

/**
 * A file with no code of its own, only imports and re-exports of other chunks: the browser's entry (it
 * imports the platform's) and the root route's module, whose code is in the first-load chunk.
 */
const ONLY_IMPORTS = /^((import\s*"[^"]+"|export\s*\{[^}]*\}\s*from\s*"[^"]+")\s*;?\s*)+$/;

function isBundle(file: string, code: string): boolean {
  return (
    file.endsWith(".js") &&
    !ROLLDOWN_RUNTIME.test(file) &&
    !ROUTE_MANIFEST.test(file) &&
    !ONLY_IMPORTS.test(code)
  );
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)));
}

describe.each(OUTPUTS)("build/%s", (output) => {
  test("holds no source map and no sourceMappingURL", async () => {
    const files = await filesUnder(join(BUILD, output));
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    for (const file of files.filter((name) => name.endsWith(".js")))
      expect(await readFile(join(BUILD, output, file), "utf8"), file).not.toContain("sourceMappingURL");
  });

  test("every JavaScript file registers a debug ID that its map in build/sourcemaps carries", async () => {
    const scripts: [string, string][] = [];
    for (const file of await filesUnder(join(BUILD, output))) {
      if (!file.endsWith(".js")) continue;
      const code = await readFile(join(BUILD, output, file), "utf8");
      if (isBundle(file, code)) scripts.push([file, code]);
    }
    // Any product's build has at least the client entry, the root and one route, and a Worker with its chunks.
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const [file, code] of scripts) {
      const debugId = debugIdOfBundle(code);
      expect(debugId, file).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // What the SDKs read at run time: the ID filed under the file's own stack.
      expect(code, file).toMatch(
        new RegExp(
          `_sentryDebugIds \\?\\?= \\{\\}\\)\\[Error\\(\\)\\.stack\\] = ["\`]${debugId}["\`]`.replaceAll(
            " ",
            "\\s*",
          ),
        ),
      );
      expect(code, file).not.toContain(DEBUG_ID_PLACEHOLDER);
      const map = JSON.parse(await readFile(join(BUILD, "sourcemaps", output, `${file}.map`), "utf8"));
      expect({ file, debugId: map.debugId, debug_id: map.debug_id }).toEqual({
        file,
        debugId,
        debug_id: debugId,
      });
      expect(map.sources.length, file).toBeGreaterThan(0);
    }
  });
});

test("debug IDs differ from file to file", async () => {
  const ids: string[] = [];
  for (const output of OUTPUTS)
    for (const file of await filesUnder(join(BUILD, output))) {
      const code = file.endsWith(".js") ? await readFile(join(BUILD, output, file), "utf8") : "";
      if (isBundle(file, code)) ids.push(debugIdOfBundle(code) ?? file);
    }
  expect(new Set(ids).size).toBe(ids.length);
});

test("Rolldown's runtime chunk has neither a debug ID nor a map, so it pays for none", async () => {
  const runtime = (await filesUnder(join(BUILD, "client"))).filter((file) => ROLLDOWN_RUNTIME.test(file));
  expect(runtime).toHaveLength(1);
  const code = await readFile(join(BUILD, "client", runtime[0] ?? ""), "utf8");
  expect(code).not.toContain("_sentryDebugId");
  await expect(readFile(join(BUILD, "sourcemaps", "client", `${runtime[0]}.map`))).rejects.toThrow();
});
