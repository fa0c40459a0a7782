import type { Config } from "@react-router/dev/config";
import { APP_DIRECTORY, type AppUnderBuild } from "./app-under-build.ts";

/**
 * React Router's configuration for an app on the platform (react-router.config.ts spreads it): what the
 * platform needs React Router to do, with the app's own choices (its static pages, extra action origins).
 * `BUILD_DIRECTORY` builds elsewhere (the benchmarks' baseline beside the real build).
 */
export function platformReactRouterConfig(app: AppUnderBuild) {
  return {
    ssr: true,
    appDirectory: APP_DIRECTORY,
    buildDirectory: process.env.BUILD_DIRECTORY ?? "build",
    // Static pages are rendered once at build time and served as assets (packages/edge-platform/docs/contract.md C5 "static"). One
    // at a time by default: PRERENDER_CONCURRENCY=2 may shorten a large build on an idle machine; more made
    // the first requests time out on a loaded one (packages/edge-platform/docs/PERFORMANCE.md, "Static pages at scale").
    prerender: {
      paths: [...app.STATIC_PAGES],
      concurrency: prerenderConcurrency(process.env.PRERENDER_CONCURRENCY),
    },
    // The whole route manifest ships with the page: prefetch and the route-loading time-out need every
    // route's module URLs up front, without /__manifest round-trips (packages/edge-platform/docs/decisions/005-navigation.md,
    // 008-navigation-adapter.md).
    routeDiscovery: { mode: "initial" },
    // React Router's own cross-origin action check (a second line behind the Worker's), fed the same list.
    allowedActionOrigins: app.EXTRA_ACTION_ORIGINS.map((origin) => new URL(origin).host),
    future: {
      // Pre-render through Vite's preview server, i.e. in workerd with the Worker's real bindings: the
      // default pre-renderer imports a Node server build, which a Cloudflare build does not have
      // (packages/edge-platform/docs/decisions/002-prerender-in-workerd.md).
      unstable_previewServerPrerendering: true,
      v8_middleware: true,
      v8_passThroughRequests: true,
      v8_splitRouteModules: true,
      // Off: in 7.18.4 the preview-server pre-renderer still requests and writes `/_root.data` for `/`,
      // while this flag makes server and browser use `/_.data` (packages/edge-platform/docs/decisions/002-prerender-in-workerd.md).
      v8_trailingSlashAwareDataRequests: false,
      v8_viteEnvironmentApi: true,
    },
  } satisfies Config;
}

function prerenderConcurrency(value: string | undefined): number {
  if (value === undefined || value === "") return 1;
  const concurrency = Number(value);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`PRERENDER_CONCURRENCY must be a positive integer, not ${JSON.stringify(value)}`);
  return concurrency;
}
