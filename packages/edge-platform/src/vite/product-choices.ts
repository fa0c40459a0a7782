import type { Plugin, UserConfig } from "vite";
import type { AppUnderBuild } from "./app-under-build.ts";
import { deployedRateLimits, rateLimitPeriods } from "./rate-limits.ts";
import { staticPageRoutingRules, staticRouteIds } from "./static-routes.ts";

/**
 * The product's choices, handed to the platform (packages/edge-platform/src/build-config.ts) in the browser's
 * and the Worker's bundles alike, so platform code never imports product code: per route, not per page, so
 * no bundle grows with the number of static pages.
 */
export function productChoices(app: AppUnderBuild): Plugin {
  return {
    name: "edge-platform:product-choices",
    config(): UserConfig {
      return {
        define: {
          "import.meta.env.PLATFORM_STATIC_ROUTE_IDS": JSON.stringify(
            staticRouteIds(app.routes, app.STATIC_PAGES),
          ),
          "import.meta.env.PLATFORM_STATIC_PAGE_ROUTING_RULES": JSON.stringify(
            staticPageRoutingRules(app.routes, app.STATIC_PAGES),
          ),
          "import.meta.env.PLATFORM_EXTRA_ACTION_ORIGINS": JSON.stringify(app.EXTRA_ACTION_ORIGINS),
          "import.meta.env.PLATFORM_LOCALE_SETTINGS": JSON.stringify(app.localeSettings),
          "import.meta.env.PLATFORM_TEXTS": JSON.stringify(app.PLATFORM_TEXTS ?? {}),
          // What a client over a limit is told to wait: the binding's period, read from wrangler.toml.
          "import.meta.env.PLATFORM_RATE_LIMIT_PERIODS": JSON.stringify(
            rateLimitPeriods(deployedRateLimits()),
          ),
        },
      };
    },
  };
}
