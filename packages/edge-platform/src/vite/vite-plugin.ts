import type { PluginOption } from "vite";
import type { AppUnderBuild } from "./app-under-build.ts";
import { assetsHeadersFile } from "./assets-headers-file.ts";
import { builtStylesheetsModule } from "./built-stylesheets-module.ts";
import { checkedVariables } from "./checked-variables.ts";
import { childCompilerReadsRoutesAsBuilt } from "./child-compiler-imports.ts";
import { compileHints } from "./compile-hints.ts";
import { debugIds } from "./debug-ids.ts";
import { devD1Migrations } from "./dev-d1-migrations.ts";
import { devWorkersCache } from "./dev-workers-cache.ts";
import { firstLoadChunk } from "./first-load-chunk.ts";
import { localServers } from "./local-servers.ts";
import { localeCopies } from "./locale-copies.ts";
import { packagedDependencies } from "./packaged-dependencies.ts";
import { productChoices } from "./product-choices.ts";
import { quietBuild } from "./quiet-build.ts";
import { reactRouterImport } from "./react-router-import.ts";
import { sentrySourceMapUpload } from "./sentry-upload.ts";
import { sourceMapsOutsideAssets } from "./source-maps-outside-assets.ts";

/**
 * The platform's part of the build and of `npm run dev` (vite.config.ts: after `cloudflare()` and
 * `reactRouter()`), one plain Vite plugin per concern, each in its own module saying why it is there. Where
 * one must run before or after another (or another tool's), it says so with Vite's `enforce` and hook
 * `order`, not by its place in this list.
 */
export function edgePlatform(app: AppUnderBuild): PluginOption[] {
  return [
    productChoices(app), // the product's choices, defined in both bundles (build-config.ts)
    localServers(), // the hosts Vite's servers answer, what their watcher ignores, request.cf in dev
    packagedDependencies(), // dev, installed from a registry: the CommonJS the platform imports, pre-bundled
    quietBuild(), // no bundler-timings note in the build's output
    childCompilerReadsRoutesAsBuilt(), // "post": after @cloudflare/vite-plugin's `ssr` environment config
    reactRouterImport(app), // "pre": the app's `react-router` is React Router with the platform's links
    firstLoadChunk(app), // one chunk for what every page loads
    builtStylesheetsModule(), // the browser's stylesheets for the Worker: React Router builds the browser first
    debugIds(), // renderChunk "pre": before @sentry/vite-plugin's, which then adds no snippet of its own
    compileHints(), // generateBundle "post" of a "pre" plugin: after Vite's, before sourceMapsOutsideAssets()'
    ...sentrySourceMapUpload(), // writeBundle: once the maps are where sourceMapsOutsideAssets() put them
    sourceMapsOutsideAssets(), // generateBundle "post": once debugIds() has put the IDs in the code
    checkedVariables(), // writeBundle of the Worker: once its deploy config is written, before pre-rendering
    assetsHeadersFile(), // buildApp "post": after React Router's build and pre-rendering
    localeCopies(app), // buildApp "post": the pre-rendered pages in the other languages, once React Router's are
    devWorkersCache(), // "pre": its middleware before @cloudflare/vite-plugin's, which calls the Worker
    devD1Migrations(), // "pre": its middleware before @cloudflare/vite-plugin's, which calls the Worker
  ];
}
