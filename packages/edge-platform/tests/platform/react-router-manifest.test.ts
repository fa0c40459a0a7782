import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { UNSAFE_AssetsManifest as AssetsManifest } from "react-router";
import { expect, test } from "vitest";
import { routeAssets } from "../../src/navigation/react-router-adapter";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";

// The navigation adapter's assumption "manifest routes list module, imports, css and hasLoader", checked
// against the manifest React Router's build really writes (packages/edge-platform/tests/unit/react-router-assumptions.test.ts
// holds the others).

const ASSETS = join(FIXTURE_BUILD_DIRECTORY, "client", "assets");

async function builtManifest(): Promise<AssetsManifest> {
  const file = (await readdir(ASSETS)).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("no manifest in build/client/assets: run npm run build:fixture");
  const source = await readFile(join(ASSETS, file), "utf8");
  return JSON.parse(source.replace(/^window\.__reactRouterManifest=/, "").replace(/;?\s*$/, ""));
}

test("manifest routes list module, imports, css and hasLoader", async () => {
  const manifest = await builtManifest();
  expect(manifest.entry.module).toMatch(/^\/assets\/.+\.js$/);
  expect(Array.isArray(manifest.entry.imports)).toBe(true);
  const ids = Object.keys(manifest.routes);
  expect(ids.length).toBeGreaterThan(1);
  for (const id of ids) {
    const entry = manifest.routes[id];
    expect(entry?.module, id).toMatch(/^\/assets\/.+\.js$/);
    expect(typeof entry?.hasLoader, id).toBe("boolean");
    for (const list of [entry?.imports, entry?.css]) {
      expect(list === undefined || list.every((url) => url.startsWith("/assets/")), id).toBe(true);
    }
    expect(routeAssets(manifest, id)?.modules[0], id).toBe(entry?.module);
  }
});

/** Whether a built browser module exports `name` (minified: `export{r as HydrateFallback}`). */
async function exportsName(url: string, name: string): Promise<boolean> {
  const code = await readFile(join(FIXTURE_BUILD_DIRECTORY, "client", url), "utf8");
  return [...code.matchAll(/export\s*\{([^}]*)\}/g)].some((match) =>
    (match[1] ?? "").split(",").map(exportedName).includes(name),
  );
}

/** The name a specifier exports: `r as HydrateFallback` -> `HydrateFallback`. */
function exportedName(specifier: string): string | undefined {
  return specifier
    .trim()
    .split(/\s+as\s+/)
    .at(-1);
}

// The browser gets a route's HydrateFallback from its main module or from the chunk the manifest names; a
// chunk the build split out but the manifest leaves unnamed means hydration renders React Router's root
// fallback instead, and fails (packages/edge-platform/src/vite/child-compiler-imports.ts).
test("a HydrateFallback split out of a route's main module is named in the manifest", async () => {
  const manifest = await builtManifest();
  let split = 0;
  for (const [id, entry] of Object.entries(manifest.routes)) {
    if (!entry || (await exportsName(entry.module, "HydrateFallback"))) continue;
    for (const url of entry.imports ?? []) {
      if (!(await exportsName(url, "HydrateFallback"))) continue;
      split++;
      expect(entry.hydrateFallbackModule, id).toBe(url);
    }
  }
  // The fixture's /client-data/fallback has one.
  expect(split).toBeGreaterThan(0);
});
