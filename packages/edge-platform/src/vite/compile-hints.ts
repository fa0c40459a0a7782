import type { Plugin } from "vite";

/**
 * V8's explicit compile hint (Chromium 136 and later): a file whose very first line is this comment has every
 * function compiled as the file is loaded, on a background thread while it streams in, instead of on the main
 * thread the first time each is called. Anywhere but the first line it does nothing (measured: a chunk with
 * Vite's `__vite__mapDeps` line above it got no faster). Other engines read a comment.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/** The module of the navigation code installed after hydration (navigation-client.ts imports it). */
const NAVIGATION_INSTALL = /[/\\]src[/\\]navigation[/\\]navigation-install\.ts$/;

/**
 * The browser chunks whose functions nearly all run on every visit: the first-load chunk (React, React Router,
 * the product's root; first-load-chunk.ts), which hydration and the first client navigation run, and the
 * navigation code, which runs after hydration and on every click. Compiled lazily, the first tap compiled
 * most of React Router's and React's update code on the main thread: at 4x CPU, a first tap to a prefetched
 * page took 135 ms and the same tap again 43, and with the hint the first took 80 ms less; the price is up
 * to a few tens of ms of first paint (packages/edge-platform/docs/PERFORMANCE.md, "Code compiled before
 * the first tap"). The Sentry SDK's chunk and the routes' are left as they are: most of the SDK never runs.
 */
export function isEagerChunk(chunk: { name: string; moduleIds: readonly string[] }): boolean {
  return chunk.name === "first-load" || chunk.moduleIds.some((id) => NAVIGATION_INSTALL.test(id));
}

/**
 * Puts COMPILE_HINT first in the eager chunks of the browser build, and their maps a line down. Its
 * generateBundle is "post", after Vite's own (which puts `__vite__mapDeps` first in a chunk with dynamic
 * imports), and the plugin is "pre", so that hook runs before sourceMapsOutsideAssets()' "post" one, which
 * moves the maps out of the bundle.
 */
export function compileHints(): Plugin {
  return {
    name: "edge-platform:compile-hints",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    // In the file's name too: an asset's name stands for its bytes (cached immutable), with or without the hint.
    augmentChunkHash: (chunk) => (isEagerChunk(chunk) ? COMPILE_HINT : undefined),
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !isEagerChunk(chunk)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          const map = chunk.sourcemapFileName ? bundle[chunk.sourcemapFileName] : undefined;
          if (map?.type !== "asset") this.error(`${chunk.fileName} has no source map to move a line down`);
          const parsed = JSON.parse(map.source.toString()) as { mappings: string };
          map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        }
      },
    },
  };
}
