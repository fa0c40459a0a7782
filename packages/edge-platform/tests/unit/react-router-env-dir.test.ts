import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { isReactRouterDevModule, withEnvDir } from "../../src/vite/react-router-env-dir.ts";

// scripts/react-router.ts runs React Router's CLI with `envDir: false` where React Router 7 passes Vite the
// deprecated `envFile: false` (packages/edge-platform/src/vite/react-router-env-dir.ts).

const PACKAGE = dirname(createRequire(import.meta.url).resolve("@react-router/dev/package.json"));
const PACKAGE_URL = pathToFileURL(`${PACKAGE}/`).href;
/** The modules that create those Vite servers: the CLI (config loader) and the Vite plugin (the rest). */
const MODULES = ["dist/cli/index.js", "dist/vite.js"];

describe("the installed React Router", () => {
  test("still passes `envFile: false`: the change still has something to do", async () => {
    // Once this fails, React Router passes `envDir` itself (React Router 8 does): scripts/react-router.ts can
    // go back to `react-router`, with react-router-env-dir.ts and react-router-cli.ts removed.
    for (const module of MODULES)
      expect(await readFile(join(PACKAGE, module), "utf8"), module).toContain("envFile: false");
  });

  test("as changed, passes `envDir: false` there and `envFile` nowhere", async () => {
    for (const module of MODULES) {
      const source = await readFile(join(PACKAGE, module), "utf8");
      const changed = withEnvDir(source);
      expect(changed, module).not.toMatch(/\benvFile\b/);
      expect(changed, module).toContain("envDir: false");
      // Nothing else changed: read back as `envFile: false` everywhere, it is the module as installed.
      const back = (text: string) => text.replaceAll("envDir: false", "envFile: false");
      expect(back(changed), module).toBe(back(source));
    }
  });
});

test("only React Router's built modules are changed", () => {
  expect(isReactRouterDevModule(`${PACKAGE_URL}dist/vite.js`, PACKAGE_URL)).toBe(true);
  expect(isReactRouterDevModule(`${PACKAGE_URL}dist/cli/index.js`, PACKAGE_URL)).toBe(true);
  expect(isReactRouterDevModule(`${PACKAGE_URL}bin.js`, PACKAGE_URL)).toBe(false);
  expect(isReactRouterDevModule(`${PACKAGE_URL}dist/vite.d.ts`, PACKAGE_URL)).toBe(false);
  expect(
    isReactRouterDevModule(pathToFileURL(join(PACKAGE, "../../vite/dist/index.js")).href, PACKAGE_URL),
  ).toBe(false);
});
