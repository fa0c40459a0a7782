import { LOCALE_COPIES_ROUTING_RULE } from "../visitor/locale-copies.ts";
import type { AppUnderBuild } from "./app-under-build.ts";
import { hasLocaleCopies } from "./locale-copies.ts";
import { withPlatformConfig } from "./platform-worker-config.ts";
import { ROUTING_RULES_MAX, staticPageRoutingRules } from "./static-routes.ts";

/**
 * What @cloudflare/vite-plugin adds to wrangler.toml for the app: the `run_worker_first` rules that send
 * static pages' HTML to the Worker, which serves it with the page's policy
 * (packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md), one per static route, whatever the number of pages;
 * and, for a product in several languages, the rule that keeps the pages' other-language copies from being
 * served at their own address (visitor/locale-copies.ts).
 */
export function workerConfig(app: AppUnderBuild) {
  const rules = staticPageRoutingRules(app.routes, app.STATIC_PAGES);
  if (!hasLocaleCopies(app)) return { assets: { run_worker_first: rules } };
  if (rules.length + 1 > ROUTING_RULES_MAX)
    throw new Error(
      `${rules.length} run_worker_first rules for static routes and one for their other languages exceed Cloudflare's limit of ${ROUTING_RULES_MAX}`,
    );
  return { assets: { run_worker_first: [...rules, LOCALE_COPIES_ROUTING_RULE] } };
}

/**
 * @cloudflare/vite-plugin's options for an app on the platform (vite.config.ts: `cloudflare(cloudflareOptions(app))`):
 * React Router's server build runs in the Worker (the `ssr` environment), configured by the product's
 * wrangler.toml completed with the platform's bindings and settings (platform-worker-config.ts) and
 * workerConfig's routing rules; the plugin writes the result as the deploy config (build/server/wrangler.json).
 * `WRANGLER_CONFIG` names another deploy config, taken as it is (the benchmarks' baseline, bench/bare).
 */
export function cloudflareOptions(app: AppUnderBuild) {
  if (process.env.WRANGLER_CONFIG)
    return { viteEnvironment: { name: "ssr" }, configPath: process.env.WRANGLER_CONFIG };
  const rules = workerConfig(app).assets.run_worker_first;
  return {
    viteEnvironment: { name: "ssr" },
    // Completes the configuration in place and returns nothing: the plugin merges what the callback returns
    // into the configuration with `defu`, which would repeat every array entry of the configuration itself.
    config: (config: Parameters<typeof withPlatformConfig>[0]) => {
      withPlatformConfig(config, rules);
    },
  };
}
