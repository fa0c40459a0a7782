import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { expect, test } from "vitest";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import { COMPILE_HINT } from "../../src/vite/compile-hints.ts";

// src/vite/compile-hints.ts, on the fixture's browser build: V8's compile hint first in the chunks that run on
// every visit, nowhere else, and their maps still true.

const ASSETS = join(FIXTURE_BUILD_DIRECTORY, "client", "assets");
const MAPS = join(FIXTURE_BUILD_DIRECTORY, "sourcemaps", "client", "assets");

async function chunk(prefix: string): Promise<{ file: string; code: string }> {
  const file = (await readdir(ASSETS)).find((name) => name.startsWith(prefix) && name.endsWith(".js"));
  if (!file) throw new Error(`no ${prefix}*.js in the fixture's build: run npm run build:fixture`);
  return { file, code: await readFile(join(ASSETS, file), "utf8") };
}

test("the first-load chunk and the navigation code open with the hint; the SDK's chunk and routes' do not", async () => {
  for (const prefix of ["first-load-", "navigation-install-"])
    expect((await chunk(prefix)).code.startsWith(`${COMPILE_HINT}\n`), prefix).toBe(true);
  const eager = [];
  for (const file of (await readdir(ASSETS)).filter((name) => name.endsWith(".js")))
    if ((await readFile(join(ASSETS, file), "utf8")).includes(COMPILE_HINT))
      eager.push(file.replace(/-[\w-]{8}\.js$/, ""));
  expect(eager.sort()).toEqual(["first-load", "navigation-install"]);
});

test("their maps still point at the source, a line down: the same text on both sides", async () => {
  for (const [prefix, text] of [
    ["first-load-", "Error reporting could not start"],
    ["navigation-install-", "its page data could not be fetched"],
  ] as const) {
    const { file, code } = await chunk(prefix);
    const at = code.indexOf(text);
    expect(at, prefix).toBeGreaterThan(0);
    const before = code.slice(0, at);
    const map = new TraceMap(await readFile(join(MAPS, `${file}.map`), "utf8"));
    const original = originalPositionFor(map, {
      line: before.split("\n").length,
      column: at - before.lastIndexOf("\n") - 1,
    });
    const source = map.sourcesContent?.[map.resolvedSources.indexOf(original.source ?? "")] ?? "";
    expect(source.split("\n")[(original.line ?? 0) - 1], prefix).toContain(text);
  }
});
