import { access, mkdir, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { Plugin, UserConfig } from "vite";
import { debugIdOfBundle, mapWithDebugId } from "./source-maps.ts";

/**
 * Moves each environment's maps from its output directory to build/sourcemaps/<environment directory>
 * before anything is written, so `build/client` (the public assets) never holds one, and writes the file's
 * debug ID into its map: `<outDir>/<file>`'s map is `mapsDirectory(outDir)/<file>.map`. Its generateBundle
 * is "post", so it runs once the debug IDs are in the code (debug-ids.ts replaces them in a "pre" one).
 */
export function sourceMapsOutsideAssets(): Plugin {
  return {
    name: "edge-platform:source-maps-outside-assets",
    apply: "build",
    // Maps without a `sourceMappingURL` comment in the code, as Vite's own `build.sourcemap`: Vite then keeps
    // them true to what it changes after the bundler (the `__vite__mapDeps` line it puts first in a chunk
    // with dynamic imports, the preload lists it writes in); set on the bundler's output alone, every map of
    // such a chunk was a line off.
    config(): UserConfig {
      return { build: { sourcemap: "hidden" } };
    },
    // And on the bundler's output, for every environment: the Worker's (@cloudflare/vite-plugin sets its own
    // build options) must not name its maps either.
    outputOptions(options) {
      return { ...options, sourcemap: "hidden" };
    },
    // React Router warns that production maps make server code public; these never reach the assets (they
    // are moved out below), so the warning is dropped, that one message only.
    configResolved(config) {
      const warn = config.logger.warn.bind(config.logger);
      config.logger.warn = (message, options) => {
        if (message.includes("Source maps are enabled in production")) return;
        warn(message, options);
      };
    },
    async buildStart() {
      await rm(mapsDirectory(this.environment.config.build.outDir), { recursive: true, force: true });
    },
    generateBundle: {
      order: "post",
      async handler(_options, bundle) {
        const outDir = resolve(this.environment.config.root, this.environment.config.build.outDir);
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !chunk.sourcemapFileName) continue;
          const map = bundle[chunk.sourcemapFileName];
          if (map?.type !== "asset") continue;
          const debugId = debugIdOfBundle(chunk.code);
          if (!debugId) this.error(`${chunk.fileName} has no debug ID`);
          const target = join(mapsDirectory(outDir), `${chunk.fileName}.map`);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, mapWithDebugId(map.source.toString(), debugId));
          delete bundle[chunk.sourcemapFileName];
        }
      },
    },
  };
}

/** `build/client` -> `build/sourcemaps/client`: next to the output directory, never inside it. */
function mapsDirectory(outDir: string): string {
  return join(dirname(outDir), "sourcemaps", basename(outDir));
}

/**
 * Where sourceMapsOutsideAssets() put the map of a built file, found from the file's path alone: for the
 * output directory that holds it, `mapsDirectory(outDir)/<file>.map`, if that exists.
 */
export async function movedSourceMap(builtFile: string): Promise<string | undefined> {
  const file = resolve(builtFile);
  for (let outDir = dirname(file); outDir !== dirname(outDir); outDir = dirname(outDir)) {
    const map = join(mapsDirectory(outDir), `${relative(outDir, file)}.map`);
    if (
      await access(map).then(
        () => true,
        () => false,
      )
    )
      return map;
  }
  return undefined;
}
