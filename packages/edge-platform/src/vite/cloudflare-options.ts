import type { AppUnderBuild } from "./app-under-build.ts";
import { staticPageRoutingRules } from "./static-routes.ts";

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
