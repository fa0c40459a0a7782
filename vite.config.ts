import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { parsePlatformConfig } from "./app/platform/config.server.ts";
import { headersFileWithStaticPages } from "./app/platform/static-page-headers.ts";
import { staticRouteIds } from "./app/platform/static-routes.ts";
import { loadAppUnderBuild } from "./scripts/app-under-build.ts";
import { exactOrigins } from "./workers/same-origin.ts";

/**
 * Modules every page loads: React, React Router and their helpers, and the platform's first-load stubs.
 * One chunk instead of six compresses better (the first-load budget, docs/PERFORMANCE.md: first-load JavaScript <= 110 KiB gzip). Only
 * modules that the first load imports anyway belong here; lazily loaded code (the navigation platform,
 * the Sentry SDK) must stay out.
 */
const FIRST_LOAD_MODULES = new RegExp(
  [
    String.raw`node_modules[\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)[\/]`,
    String.raw`vite[\/]preload-helper`,
    String.raw`app[\/]platform[\/]monitoring[\/](browser-monitoring|early-errors)\.ts$`,
    String.raw`app[\/]platform[\/]navigation[\/]navigation-client\.ts$`,
    String.raw`app[\/]components[\/](app-link|site-nav)\.tsx$`,
    String.raw`app[\/]platform[\/]errors[\/]error-page\.tsx$`,
    String.raw`app[\/]platform[\/]entry\.client\.tsx$`,
    String.raw`app[\/]platform[\/]nonce\.tsx$`,
    String.raw`app[\/]platform[\/](monitoring[\/]use-route-monitoring|navigation[\/]use-navigation-platform)\.ts$`,
  ].join("|"),
);

/**
 * DNS rebinding: the dev server answers only for loopback names and IP addresses (Vite's
 * default `server.allowedHosts`, checked before any plugin's middleware, the Worker's included) and the
 * names in LOCAL_ALLOWED_HOSTS: comma-separated, `.example.com` for a domain and its subdomains. The same
 * variable configures `npm start` (tests/support/serve.ts).
 */
const LOCAL_ALLOWED_HOSTS = (process.env.LOCAL_ALLOWED_HOSTS ?? "")
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);

const { EXTRA_ACTION_ORIGINS, STATIC_PAGES, routes } = await loadAppUnderBuild();

export default defineConfig({
  server: { allowedHosts: LOCAL_ALLOWED_HOSTS },
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
    "import.meta.env.PLATFORM_EXTRA_ACTION_ORIGINS": JSON.stringify(exactOrigins(EXTRA_ACTION_ORIGINS)),
  },
  plugins: [
    // WRANGLER_CONFIG is for bench/ssr.ts, which builds its baseline Worker (bench/bare) from the same app.
    cloudflare({ viteEnvironment: { name: "ssr" }, configPath: process.env.WRANGLER_CONFIG }),
    reactRouter(),
    // After reactRouter(): its pre-rendering runs in the build step this plugin wraps.
    staticPageSecurityHeaders(),
    checkedPlatformConfig(),
  ],
});

/**
 * The build fails when the variables it will be deployed with are invalid (app/platform/config.server.ts),
 * naming each one: the deploy config @cloudflare/vite-plugin writes (build/server/wrangler.json) holds them.
 * Secrets are not in it; the Worker checks those on its first request.
 */
function checkedPlatformConfig(): Plugin {
  return {
    name: "checked-platform-config",
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

/**
 * Once the pages are pre-rendered, writes their security headers (script hashes included) into the
 * assets `_headers` file of the build (app/platform/static-page-headers.ts).
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
              // The pages were rendered with the build's configuration: their policy allows its report origin.
              const serverDirectory = app.environments.ssr?.config.build.outDir;
              if (!serverDirectory) throw new Error("No Worker build to read the configuration from");
              const config = parsePlatformConfig(await deployedVariables(serverDirectory));
              const reportOrigin = config.monitoring?.directOrigin;
              const pages = await Promise.all(
                STATIC_PAGES.map(async (path) => ({
                  path,
                  html: await readFile(join(clientDirectory, path, "index.html"), "utf8"),
                })),
              );
              await writeFile(
                headersFile,
                await headersFileWithStaticPages(await readFile(headersFile, "utf8"), pages, {
                  reportOrigin,
                }),
              );
            },
          },
        };
      },
    },
  };
}

/** The `vars` of the deploy config @cloudflare/vite-plugin writes next to the Worker's bundle. */
async function deployedVariables(serverDirectory: string): Promise<Record<string, unknown>> {
  const deployConfig = JSON.parse(await readFile(join(serverDirectory, "wrangler.json"), "utf8"));
  return (deployConfig as { vars?: Record<string, unknown> }).vars ?? {};
}
