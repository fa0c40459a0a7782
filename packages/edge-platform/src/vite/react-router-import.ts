import type { Plugin } from "vite";
import type { AppUnderBuild } from "./app-under-build.ts";
import { PLATFORM_LINKS_MODULE, usesPlatformLinks } from "./platform-links.ts";

/**
 * The application's `import ... from "react-router"` gets React Router with `Link` and `NavLink` whose
 * `prefetch` prop goes through the platform's queue (packages/edge-platform/src/navigation/react-router-links.tsx,
 * packages/edge-platform/docs/decisions/020-react-router-prefetch-prop.md). A resolution at build time, in the browser's and the
 * Worker's builds and in `react-router dev` alike (so both sides render the same markup): product code stays
 * as React Router documents it, with React Router's own types. "pre", so it runs before Vite's own resolver
 * and its pre-bundled dependencies.
 */
export function reactRouterImport(app: AppUnderBuild): Plugin {
  return {
    name: "edge-platform:react-router-import",
    enforce: "pre",
    resolveId: {
      filter: { id: /^react-router$/ },
      handler(source, importer) {
        return usesPlatformLinks(source, importer, app.appDirectory) ? PLATFORM_LINKS_MODULE : undefined;
      },
    },
  };
}
