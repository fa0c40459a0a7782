import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { decode } from "@jridgewell/sourcemap-codec";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { firstLoadReport, firstLoadSources, measureFirstLoad } from "../../src/testing/first-load.ts";

/**
 * The platform's own first-load cost: the bytes of its modules in what a first visit to the fixture's `/`
 * loads (raw, minified, from the build's source maps), on top of React and React Router. A product's budget
 * is its own (app/product.config.ts, FIRST_LOAD_BUDGET_BYTES); this one is the platform's share of it: the
 * document, the error page, the browser's error reporting until the SDK loads, the navigation client and
 * the links, the visitor's language and time zone (docs/i18n.md), with room to spare for the platform's next change (packages/edge-platform/docs/PERFORMANCE.md,
 * "First load", has the current figure).
 */
const PLATFORM_FIRST_LOAD_BUDGET_BYTES = 11 * 1024;

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

describe("the platform's first-load cost", () => {
  test("its modules in the first load of / stay within its budget; over it, the failure names them", async () => {
    const modules = await firstLoadSources(app.url, "/", FIXTURE_BUILD_DIRECTORY);
    const platform = modules.filter(({ owner }) => owner === "platform");
    const bytes = platform.reduce((sum, { rawBytes }) => sum + rawBytes, 0);
    expect(platform.length).toBeGreaterThan(3);
    expect(bytes, firstLoadReport(platform, platform.length)).toBeLessThanOrEqual(
      PLATFORM_FIRST_LOAD_BUDGET_BYTES,
    );
  });

  test("the first load of / holds no Sentry code", async () => {
    const firstLoad = await measureFirstLoad(app.url, "/");
    expect(firstLoad.files.filter((file) => file.hasSentry).map((file) => file.url)).toEqual([]);
  });

  test("a page that is not there is not measured as the 404 page under its name", async () => {
    await expect(measureFirstLoad(app.url, "/no-such-page")).rejects.toThrow(
      "/no-such-page answered 404, not 200",
    );
  });
});

describe("the browser's source maps", () => {
  // Vite puts a `__vite__mapDeps` line first in a chunk with dynamic imports after the bundler made its map:
  // unless Vite knows the build has maps, that map is a line off and names the wrong code in every stack.
  test("every mapped position of every built script lies inside its line", async () => {
    const assets = join(FIXTURE_BUILD_DIRECTORY, "client", "assets");
    const scripts = (await readdir(assets)).filter((file) => file.endsWith(".js"));
    let checked = 0;
    for (const script of scripts) {
      const map = await readFile(
        join(FIXTURE_BUILD_DIRECTORY, "sourcemaps", "client", "assets", `${script}.map`),
        "utf8",
      ).catch(() => undefined);
      if (!map) continue;
      const lines = (await readFile(join(assets, script), "utf8")).split("\n");
      const outside = decode((JSON.parse(map) as { mappings: string }).mappings).flatMap((segments, line) =>
        segments
          .filter(([column]) => column > (lines[line]?.length ?? 0))
          .map(([column]) => `${line}:${column}`),
      );
      expect(outside, script).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe("the Worker's build", () => {
  // The document imports navigation-client.ts, whose module asks for the navigation code as it runs
  // (src/navigation/navigation-code.ts): in the browser only. On the server it would have been bundled and run at
  // the Worker's start, for nothing.
  test("holds none of the browser's navigation code", async () => {
    const server = join(FIXTURE_BUILD_DIRECTORY, "server");
    const files = await readdir(server, { recursive: true });
    expect(files.filter((file) => file.includes("navigation-install"))).toEqual([]);
    expect(files).toContain("index.js");
    // Its chunk by name (the Worker's build keeps comments, which name the module).
    expect(await readFile(join(server, "index.js"), "utf8")).not.toMatch(/navigation-install-[\w-]+\.js/);
  });
});
