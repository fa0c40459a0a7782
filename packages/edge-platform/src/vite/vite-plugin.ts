import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import MagicString from "magic-string";
import type { Plugin, PluginOption, UserConfig } from "vite";
import { parsePlatformConfig } from "../config.server.ts";
import { allowedHostsFrom } from "../local-server/allowed-hosts.ts";
import type { AppUnderBuild } from "./app-under-build.ts";
import { devD1Migrations } from "./dev-d1-migrations.ts";
import { devWorkersCache } from "./dev-workers-cache.ts";
import { firstLoadModules } from "./first-load.ts";
import { inlineStylesheetsModule } from "./inline-stylesheets.ts";
import { PLATFORM_LINKS_MODULE, usesPlatformLinks } from "./platform-links.ts";
import { deployedRateLimits, rateLimitPeriods } from "./rate-limits.ts";
import {
  DEBUG_ID_PLACEHOLDER,
  DEBUG_ID_SNIPPET,
  debugIdFor,
  debugIdOfBundle,
  mapWithDebugId,
  SOURCE_MAPS_NOT_UPLOADED,
  sourceMapUpload,
} from "./source-maps.ts";
import { headersFileForAssets } from "./static-page-headers.ts";
import { staticPageRoutingRules, staticRouteIds } from "./static-routes.ts";

/**
 * The platform's part of the build, as one Vite plugin placed after `reactRouter()` (vite.config.ts): the
 * product's choices handed to the platform's code, React Router's child compiler reading route modules as
 * the build does, React Router's links prefetched through the platform's queue, the first-load chunk, the
 * stylesheets documents inline, debug IDs and source maps kept out of the assets (and uploaded to Sentry
 * when configured), the assets' `_headers`, the check of the deploy variables, the local servers' host
 * and watcher settings, the Workers Cache emulation in front of `npm run dev`'s Worker and its D1
 * migrations applied as they are written. Each piece is a plain Vite plugin below or in its own module.
 */
export function edgePlatform(app: AppUnderBuild): PluginOption[] {
  return [
    platformConfig(app),
    childCompilerReadsRoutesAsBuilt(),
    reactRouterLinks(app),
    firstLoadChunk(app),
    inlineStylesheetsModule(),
    // After reactRouter(): its pre-rendering runs in the build step this plugin wraps.
    staticPageSecurityHeaders(),
    checkedPlatformConfig(),
    // Before @sentry/vite-plugin, which then sees the debug IDs and adds none of its own.
    debugIds(),
    ...sentrySourceMaps(),
    sourceMapsOutsideAssets(),
    devWorkersCache(),
    devD1Migrations(),
  ];
}

/**
 * What @cloudflare/vite-plugin adds to wrangler.toml for the app: the `run_worker_first` rules that send
 * static pages' HTML to the Worker, which serves it with the page's policy
 * (packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md), one per static route, whatever the number of pages.
 */
export function workerConfig(app: AppUnderBuild) {
  return { assets: { run_worker_first: staticPageRoutingRules(app.routes, app.STATIC_PAGES) } };
}

/**
 * @cloudflare/vite-plugin's options for an app on the platform (vite.config.ts: `cloudflare(cloudflareOptions(app))`):
 * React Router's server build runs in the Worker (the `ssr` environment) with wrangler.toml and workerConfig's
 * additions. `WRANGLER_CONFIG` names another deploy config (the benchmarks' baseline, bench/bare).
 */
export function cloudflareOptions(app: AppUnderBuild) {
  return {
    viteEnvironment: { name: "ssr" },
    ...(process.env.WRANGLER_CONFIG
      ? { configPath: process.env.WRANGLER_CONFIG }
      : { config: workerConfig(app) }),
  };
}

/**
 * The Vite settings the platform needs: the product's choices, handed to the platform
 * (packages/edge-platform/src/build-config.ts) in the browser's and the Worker's bundles alike (per route, not per page,
 * so no bundle grows with the number of static pages), the dev server's allowed hosts and what its
 * watcher ignores.
 */
function platformConfig(app: AppUnderBuild): Plugin {
  return {
    name: "edge-platform:config",
    config(_config, { command }): UserConfig {
      // The Worker's `request.cf` under `npm run dev` is Miniflare's placeholder rather than the sample
      // Miniflare would otherwise download from workers.cloudflare.com at each start: offline that download
      // waits, then prints a warning and a stack ("Unable to fetch the `Request.cf` object!") before falling
      // back to the same placeholder. @cloudflare/vite-plugin has no option for it, only Miniflare's variable,
      // read when the Worker starts (after this hook). `CLOUDFLARE_CF_FETCH_ENABLED=true npm run dev` downloads.
      if (command === "serve") process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
      return {
        // Rolldown's note that plugins' callbacks took most of a build names React Router's virtual modules
        // on a busy machine: nothing a product can act on, and the build's time is measured elsewhere
        // (packages/edge-platform/docs/PERFORMANCE.md, "Static pages at scale").
        build: { rolldownOptions: { checks: { bundlerTimings: false } } },
        server: {
          // DNS rebinding: the dev server answers only for loopback names and IP addresses (Vite's default,
          // checked before any plugin's middleware, the Worker's included) and the names in
          // LOCAL_ALLOWED_HOSTS, as `npm start` does (packages/edge-platform/src/local-server/allowed-hosts.ts).
          allowedHosts: allowedHostsFrom(process.env.LOCAL_ALLOWED_HOSTS),
          // The build's output is never a source. Pre-rendering runs a Vite preview server, and React
          // Router's child compiler inside it watches the project root with Vite's watcher, which re-reads a
          // whole directory for each file added to it: every pre-rendered page cost a scan of all the pages
          // before it, O(N^2) over a build (packages/edge-platform/docs/PERFORMANCE.md, "Static pages at scale"). Vite ignores its
          // own `build.outDir`, not React Router's `buildDirectory` (react-router.config.ts).
          watch: { ignored: [`${resolve(process.env.BUILD_DIRECTORY ?? "build")}/**`] },
        },
        define: {
          "import.meta.env.PLATFORM_STATIC_ROUTE_IDS": JSON.stringify(
            staticRouteIds(app.routes, app.STATIC_PAGES),
          ),
          "import.meta.env.PLATFORM_STATIC_PAGE_ROUTING_RULES": JSON.stringify(
            workerConfig(app).assets.run_worker_first,
          ),
          "import.meta.env.PLATFORM_EXTRA_ACTION_ORIGINS": JSON.stringify(app.EXTRA_ACTION_ORIGINS),
          // What a client over a limit is told to wait: the binding's period, read from wrangler.toml.
          "import.meta.env.PLATFORM_RATE_LIMIT_PERIODS": JSON.stringify(
            rateLimitPeriods(deployedRateLimits()),
          ),
        },
      };
    },
  };
}

/** The cache directory React Router gives its child compiler (@react-router/dev's vite.js, `createServer`). */
const REACT_ROUTER_CHILD_COMPILER_CACHE = "node_modules/.vite-child-compiler";

/**
 * React Router decides from its child compiler's view of a route module which exports the route manifest
 * names as split chunks (future.v8_splitRouteModules), and the build splits them from its own view: the two
 * must agree. The child compiler is a Vite server with this config; it reads routes through the `ssr`
 * environment, whose dependencies @cloudflare/vite-plugin pre-bundles for workerd. A pre-bundled CommonJS
 * import (`react/jsx-runtime`) there becomes a top-level `const _jsx = ...` that all the module's components
 * share, so React Router finds `HydrateFallback` not splittable and the manifest names no chunk for it,
 * while the build does split it out of the route's main chunk. The browser then never gets the route's
 * `HydrateFallback`, hydrates React Router's root fallback against the server's HTML of the route's, and
 * React throws a hydration mismatch on every load of a `clientLoader.hydrate` page. Without pre-bundling
 * in the child compiler, imports stay imports, as in the build. The child compiler reads modules, it never
 * runs them, so it loses nothing by it.
 */
function childCompilerReadsRoutesAsBuilt(): Plugin {
  return {
    name: "edge-platform:child-compiler-imports",
    enforce: "post",
    config(config) {
      if (config.cacheDir !== REACT_ROUTER_CHILD_COMPILER_CACHE) return;
      const ssr = config.environments?.ssr;
      if (ssr) ssr.optimizeDeps = { ...ssr.optimizeDeps, noDiscovery: true, include: [] };
    },
  };
}

/**
 * The application's `import ... from "react-router"` gets React Router with `Link` and `NavLink` whose
 * `prefetch` prop goes through the platform's queue (packages/edge-platform/src/navigation/react-router-links.tsx,
 * packages/edge-platform/docs/decisions/020-react-router-prefetch-prop.md). A resolution at build time, in the browser's and the
 * Worker's builds and in `react-router dev` alike (so both sides render the same markup): product code stays
 * as React Router documents it, with React Router's own types. "pre", so it runs before Vite's own resolver
 * and its pre-bundled dependencies.
 */
function reactRouterLinks(app: AppUnderBuild): Plugin {
  return {
    name: "edge-platform:react-router-links",
    enforce: "pre",
    resolveId: {
      filter: { id: /^react-router$/ },
      handler(source, importer) {
        return usesPlatformLinks(source, importer, app.appDirectory) ? PLATFORM_LINKS_MODULE : undefined;
      },
    },
  };
}

/**
 * One chunk for the modules every page loads (packages/edge-platform/src/vite/first-load.ts): one file
 * instead of six compresses better, and each file costs a debug ID (the first-load budget,
 * packages/edge-platform/docs/PERFORMANCE.md, "First load": first-load JavaScript <= 111 KiB gzip on `/`). The set is read from the
 * browser build's own module graph once it is complete (buildEnd), before Rolldown forms chunks (it calls
 * `test` only then).
 */
function firstLoadChunk(app: AppUnderBuild): Plugin {
  let firstLoad: ReadonlySet<string> = new Set();
  return {
    name: "edge-platform:first-load-chunk",
    apply: "build",
    config(): UserConfig {
      return {
        environments: {
          client: {
            build: {
              rolldownOptions: {
                output: {
                  codeSplitting: {
                    groups: [{ name: "first-load", test: (id: string) => firstLoad.has(id) }],
                  },
                },
              },
            },
          },
        },
      };
    },
    buildEnd() {
      if (this.environment.name !== "client") return;
      firstLoad = firstLoadModules(app.appDirectory, this.getModuleIds(), (id) => this.getModuleInfo(id));
      if (firstLoad.size === 0)
        this.error("No first-load modules: no client entry or root route in the graph");
    },
  };
}

/** The module of Rolldown's runtime helpers (`rolldown-runtime-*.js`). */
const ROLLDOWN_RUNTIME = "\0rolldown/runtime.js";

/**
 * Starts every built JavaScript file of the browser and the Worker with DEBUG_ID_SNIPPET
 * (packages/edge-platform/src/vite/source-maps.ts) and, once the code is final, puts the file's debug ID in place of the
 * placeholder (the same length, so the maps stay true).
 */
function debugIds(): Plugin {
  return {
    name: "edge-platform:debug-ids",
    apply: "build",
    enforce: "pre",
    renderChunk: {
      order: "pre",
      handler(code, chunk) {
        const file = new MagicString(code);
        // Rolldown's own helpers get no map, so an ID there could never be resolved: not worth its bytes.
        // The comment (gone once minified) only tells @sentry/vite-plugin not to add its own snippet.
        // A chunk with no code of its own (an entry that only imports another chunk) cannot throw: no ID either.
        const ownCode = Object.values(chunk.modules).some((module) => module.renderedLength > 0);
        if (!ownCode || chunk.moduleIds.every((id) => id === ROLLDOWN_RUNTIME))
          file.prepend("/* no debug ID, no _sentryDebugIdIdentifier: no map */");
        else file.prepend(DEBUG_ID_SNIPPET);
        return { code: file.toString(), map: file.generateMap({ hires: "boundary", file: chunk.fileName }) };
      },
    },
    generateBundle: {
      order: "pre",
      async handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !chunk.code.includes(DEBUG_ID_PLACEHOLDER)) continue;
          chunk.code = chunk.code.replaceAll(DEBUG_ID_PLACEHOLDER, await debugIdFor(chunk.code));
        }
      },
    },
  };
}

/** Each built JavaScript file's map, outside the output directories: filled by sourceMapsOutsideAssets(). */
const SOURCE_MAP_OF_BUNDLE = new Map<string, string>();

/**
 * With SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT set in the shell that builds, the upload of the maps
 * of every built JavaScript file of the browser and the Worker to Sentry after each environment's build
 * (packages/edge-platform/docs/decisions/009-source-maps.md). Without them the build is byte for byte the same, says so in one
 * line and makes no request: no telemetry, no release, nothing from the environment.
 */
function sentrySourceMaps(): Plugin[] {
  const settings = sourceMapUpload(process.env);
  const upload = settings.upload ? settings : undefined;
  const plugins = sentryVitePlugin({
    // "" rather than undefined, which the plugin would fill in from the environment.
    authToken: upload?.authToken ?? "",
    org: upload?.org ?? "",
    project: upload?.project ?? "",
    telemetry: false,
    // Without credentials its own warnings (one per environment) would only repeat SOURCE_MAPS_NOT_UPLOADED.
    silent: !upload,
    // Maps are matched by debug ID alone. The release is the deployed version's id, known only at run time
    // (packages/edge-platform/docs/decisions/009-source-maps.md), so the build neither creates nor injects one.
    release: { name: "", inject: false, create: false, finalize: false, setCommits: false },
    sourcemaps: {
      resolveSourceMap: (bundlePath) => SOURCE_MAP_OF_BUNDLE.get(resolve(bundlePath)),
    },
  }) as Plugin[];
  const report: Plugin = {
    name: "edge-platform:source-maps-upload-report",
    apply: "build",
    buildApp: {
      order: "pre",
      async handler(builder) {
        if (!upload) builder.config.logger.warn(SOURCE_MAPS_NOT_UPLOADED);
      },
    },
  };
  return [...plugins.map((plugin) => ({ ...plugin, apply: "build" as const })), report];
}

/**
 * Moves each environment's maps from its output directory to build/sourcemaps/<environment directory>
 * before anything is written, so `build/client` (the public assets) never holds one, and writes the file's
 * debug ID into its map. Runs after @sentry/vite-plugin has settled the debug IDs (its generateBundle is
 * "pre") and before it uploads (writeBundle), which finds the maps through SOURCE_MAP_OF_BUNDLE.
 */
function sourceMapsOutsideAssets(): Plugin {
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
        const mapsDir = mapsDirectory(outDir);
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !chunk.sourcemapFileName) continue;
          const map = bundle[chunk.sourcemapFileName];
          if (map?.type !== "asset") continue;
          const debugId = debugIdOfBundle(chunk.code);
          if (!debugId) this.error(`${chunk.fileName} has no debug ID`);
          const target = join(mapsDir, chunk.sourcemapFileName);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, mapWithDebugId(map.source.toString(), debugId));
          delete bundle[chunk.sourcemapFileName];
          SOURCE_MAP_OF_BUNDLE.set(join(outDir, chunk.fileName), target);
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
 * The build fails when the variables it will be deployed with are invalid (packages/edge-platform/src/config.server.ts),
 * naming each one: the deploy config @cloudflare/vite-plugin writes (build/server/wrangler.json) holds them.
 * Secrets are not in it; the Worker checks those on its first request.
 */
function checkedPlatformConfig(): Plugin {
  return {
    name: "edge-platform:checked-config",
    apply: "build",
    // Runs once the Worker's bundle and its deploy config are written, before the pre-rendering.
    writeBundle: {
      order: "post",
      async handler() {
        if (this.environment.name !== "ssr") return;
        parsePlatformConfig(await deployedVariables(this.environment.config.build.outDir));
      },
    },
  };
}

/** The `vars` of the deploy config @cloudflare/vite-plugin writes next to the Worker's bundle. */
async function deployedVariables(serverDirectory: string): Promise<Record<string, unknown>> {
  const deployConfig = JSON.parse(await readFile(join(serverDirectory, "wrangler.json"), "utf8"));
  return (deployConfig as { vars?: Record<string, unknown> }).vars ?? {};
}

/**
 * Once the pages are pre-rendered, completes the assets `_headers` file of the build: the base security
 * headers for every asset and the type of page data (packages/edge-platform/src/vite/static-page-headers.ts). A fixed set
 * of rules: pages get their policy from the Worker.
 */
function staticPageSecurityHeaders(): Plugin {
  return {
    name: "edge-platform:static-page-security-headers",
    apply: "build",
    config: {
      order: "post",
      handler({ builder }) {
        const buildApp = builder?.buildApp;
        return {
          builder: {
            async buildApp(app) {
              await buildApp?.(app);
              const clientDirectory = app.environments.client?.config.build.outDir;
              if (!clientDirectory) throw new Error("No client build to write _headers for");
              const headersFile = join(clientDirectory, "_headers");
              await writeFile(headersFile, headersFileForAssets(await readFile(headersFile, "utf8")));
            },
          },
        };
      },
    },
  };
}
