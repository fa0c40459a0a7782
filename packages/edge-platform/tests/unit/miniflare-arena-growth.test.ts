import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  isMiniflareModule,
  withGeometricArenaGrowth,
} from "../../src/local-server/miniflare-arena-growth.ts";

// serveBuild and the React Router CLI wrapper make Miniflare's configuration arena grow geometrically
// (src/local-server/miniflare-arena-growth.ts, cloudflare/workers-sdk#15271).

const require = createRequire(import.meta.url);
/** Every Miniflare installed here: the one serveBuild and wrangler use, and the Vite plugin's own. */
const MINIFLARES = [
  require.resolve("miniflare"),
  createRequire(fileURLToPath(import.meta.resolve("@cloudflare/vite-plugin"))).resolve("miniflare"),
];
describe.each(MINIFLARES)("%s", (path) => {
  test("still grows its one-segment arena by the size asked for: the change still has something to do", async () => {
    // Once this fails, Miniflare grows its arena otherwise: miniflare-arena-growth.ts and its two calls can go.
    const source = await readFile(path, "utf8");
    expect(withGeometricArenaGrowth(source)).not.toBe(source);
  });

  test("as changed, the arena at least doubles, and nothing else changed", async () => {
    const source = await readFile(path, "utf8");
    const changed = withGeometricArenaGrowth(source);
    expect(changed).toMatch(
      /const srcBuffer = [^\n]+\n\s*minSize = Math\.max\(minSize < MIN_SINGLE_SEGMENT_GROWTH \? [^\n]+, srcBuffer\.byteLength\);\n\s*s\.buffer = new ArrayBuffer\(srcBuffer\.byteLength \+ minSize\);/,
    );
    // Read back without the one change, it is the module as installed.
    const back = changed.replace(/minSize = Math\.max\((.+), srcBuffer\.byteLength\);/, "minSize = $1;");
    expect(back).toBe(source);
  });

  test("is the module Node loads for it", () => {
    expect(isMiniflareModule(pathToFileURL(path).href)).toBe(true);
  });
});

test("only Miniflare's entry is changed", () => {
  const miniflare = pathToFileURL(dirname(require.resolve("miniflare/package.json"))).href;
  expect(isMiniflareModule(`${miniflare}/dist/src/index.js`)).toBe(true);
  expect(isMiniflareModule(`${miniflare}/dist/src/workers/core/entry.worker.js`)).toBe(false);
  expect(isMiniflareModule(pathToFileURL(join(dirname(require.resolve("wrangler")), "cli.js")).href)).toBe(
    false,
  );
});
