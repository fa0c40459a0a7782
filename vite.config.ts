import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { headersFileForAssets } from "./app/platform/static-page-headers.ts";
import { staticPageRoutingRules, staticRouteIds } from "./app/platform/static-routes.ts";
import { EXTRA_ACTION_ORIGINS, STATIC_PAGES } from "./app/product.config.ts";
import routes from "./app/routes.ts";
import { exactOrigins } from "./workers/same-origin.ts";

/**
 * Modules every page loads: React, React Router and their helpers, and the platform's first-load stubs.
 * One chunk instead of six compresses better (issue 6: first-load JavaScript <= 110 KiB gzip). Only
 * modules that the first load imports anyway belong here; lazily loaded code (the navigation platform,
 * the Sentry SDK) must stay out.
 */
const FIRST_LOAD_MODULES = new RegExp(
  [
    String.raw`node_modules[\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)[\/]`,
    String.raw`vite[\/]preload-helper`,
    String.raw`app[\/]platform[\/]monitoring[\/](browser-monitoring|early-errors)\.ts$`,
    String.raw`app[\/]platform[\/]navigation[\/]navigation-client\.ts$`,
    String.raw`app[\/]components[\/](app-link|error-page|site-nav)\.tsx$`,
    String.raw`app[\/]platform[\/]nonce\.tsx$`,
    String.raw`app[\/]platform[\/](monitoring[\/]use-route-monitoring|navigation[\/]use-navigation-platform)\.ts$`,
  ].join("|"),
);

/**
 * Issue 11 (DNS rebinding): the dev server answers only for loopback names and IP addresses (Vite's
 * default `server.allowedHosts`, checked before any plugin's middleware, the Worker's included) and the
 * names in LOCAL_ALLOWED_HOSTS: comma-separated, `.example.com` for a domain and its subdomains. The same
 * variable configures `npm start` (tests/support/serve.ts).
 */
const LOCAL_ALLOWED_HOSTS = (process.env.LOCAL_ALLOWED_HOSTS ?? "")
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);

/**
 * The rules that send static pages' HTML to the Worker, which serves it with the page's policy
 * (docs/decisions/010-static-page-csp-at-scale.md): one per static route, whatever the number of pages.
 */
const STATIC_PAGE_ROUTING_RULES = staticPageRoutingRules(routes, STATIC_PAGES);

/**
 * The build's output is never a source. Pre-rendering runs a Vite preview server, and React Router's
 * child compiler inside it watches the project root with Vite's watcher, which re-reads a whole directory
 * for each file added to it: every pre-rendered page cost a scan of all the pages before it, O(N^2) over a
 * build (docs/PERFORMANCE.md, "scale"). Vite ignores its own `build.outDir`, not React Router's
 * `buildDirectory` (react-router.config.ts).
 */
const IGNORED_BY_WATCHER = [`${resolve(process.env.BUILD_DIRECTORY ?? "build")}/**`];

export default defineConfig({
  server: { allowedHosts: LOCAL_ALLOWED_HOSTS, watch: { ignored: IGNORED_BY_WATCHER } },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: "first-load", test: FIRST_LOAD_MODULES }] } },
        },
      },
    },
  },
  // The product's choices, handed to the platform (app/platform/build-config.ts) in the browser's and the
  // Worker's bundles alike: per route, not per page, so no bundle grows with the number of static pages.
  define: {
    "import.meta.env.PLATFORM_STATIC_ROUTE_IDS": JSON.stringify(staticRouteIds(routes, STATIC_PAGES)),
    "import.meta.env.PLATFORM_STATIC_PAGE_ROUTING_RULES": JSON.stringify(STATIC_PAGE_ROUTING_RULES),
    "import.meta.env.PLATFORM_EXTRA_ACTION_ORIGINS": JSON.stringify(exactOrigins(EXTRA_ACTION_ORIGINS)),
  },
  plugins: [
    // WRANGLER_CONFIG is for bench/ssr.ts, which builds its baseline Worker (bench/bare) from the same app;
    // the baseline serves static pages as plain assets (no Worker), the figure the Worker is compared to.
    cloudflare({
      viteEnvironment: { name: "ssr" },
      configPath: process.env.WRANGLER_CONFIG,
      ...(!process.env.WRANGLER_CONFIG && {
        config: { assets: { run_worker_first: STATIC_PAGE_ROUTING_RULES } },
      }),
    }),
    reactRouter(),
    // After reactRouter(): its pre-rendering runs in the build step this plugin wraps.
    staticPageSecurityHeaders(),
  ],
});

/**
 * Once the pages are pre-rendered, completes the assets `_headers` file of the build: the base security
 * headers for every asset and the type of page data (app/platform/static-page-headers.ts). A fixed set of
 * rules: pages get their policy from the Worker.
 */
function staticPageSecurityHeaders(): Plugin {
  return {
    name: "static-page-security-headers",
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
