import { describe, expect, test } from "vitest";
import { COMPILE_HINT, compileHints, isEagerChunk } from "../../src/vite/compile-hints";

// src/vite/compile-hints.ts: which chunks get V8's compile hint, and what putting it first does to a chunk and
// its map (tests/platform/compile-hints.test.ts reads the fixture's real build).

type Bundle = Record<string, Record<string, unknown>>;

function generateBundle(bundle: Bundle): void {
  const hook = compileHints().generateBundle as { handler: (this: unknown, ...args: unknown[]) => void };
  hook.handler.call(
    {
      error(message: string): never {
        throw new Error(message);
      },
    },
    {},
    bundle,
  );
}

function chunk(name: string, moduleIds: string[], map?: string) {
  return {
    type: "chunk",
    name,
    moduleIds,
    fileName: `assets/${name}-x.js`,
    code: "one();\ntwo();",
    sourcemapFileName: map ? `assets/${name}-x.js.map` : null,
    map: map ? { mappings: map } : null,
  };
}

describe("V8's compile hint in the browser build", () => {
  test("the first-load chunk and the chunk of the navigation code, wherever the package is installed", () => {
    expect(isEagerChunk({ name: "first-load", moduleIds: [] })).toBe(true);
    for (const id of [
      "/repo/packages/edge-platform/src/navigation/navigation-install.ts",
      "/product/node_modules/edge-platform/src/navigation/navigation-install.ts",
    ])
      expect(isEagerChunk({ name: "navigation-install", moduleIds: [id] }), id).toBe(true);
    expect(isEagerChunk({ name: "browser-sentry.client", moduleIds: ["/x/src/reporting/sdk.ts"] })).toBe(
      false,
    );
    expect(isEagerChunk({ name: "about", moduleIds: ["/repo/app/routes/about.tsx"] })).toBe(false);
  });

  test("first in the chunk, its map a line down; other chunks untouched", () => {
    const bundle: Bundle = {
      "first-load": chunk("first-load", [], "AAAA;AACA"),
      "first-load-map": { type: "asset", source: JSON.stringify({ version: 3, mappings: "AAAA;AACA" }) },
      about: chunk("about", ["/repo/app/routes/about.tsx"], "AAAA"),
      "about-map": { type: "asset", source: JSON.stringify({ version: 3, mappings: "AAAA" }) },
    };
    bundle["first-load"] = { ...bundle["first-load"], sourcemapFileName: "first-load-map" };
    bundle.about = { ...bundle.about, sourcemapFileName: "about-map" };
    generateBundle(bundle);
    expect(bundle["first-load"]?.code).toBe(`${COMPILE_HINT}\none();\ntwo();`);
    expect(JSON.parse(String(bundle["first-load-map"]?.source))).toEqual({
      version: 3,
      mappings: ";AAAA;AACA",
    });
    expect(bundle["first-load"]?.map).toEqual({ mappings: ";AAAA;AACA" });
    expect(bundle.about?.code).toBe("one();\ntwo();");
    expect(JSON.parse(String(bundle["about-map"]?.source)).mappings).toBe("AAAA");
  });

  test("an eager chunk without a map is an error, not a map a line off", () => {
    expect(() => generateBundle({ "first-load": chunk("first-load", []) })).toThrow(/no source map/);
  });
});
