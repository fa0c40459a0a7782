import type { Plugin } from "vite";

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
export function childCompilerReadsRoutesAsBuilt(): Plugin {
  return {
    name: "edge-platform:child-compiler-imports",
    // "post": after @cloudflare/vite-plugin's config hook, which turns the `ssr` environment's pre-bundling on.
    enforce: "post",
    config(config) {
      if (config.cacheDir !== REACT_ROUTER_CHILD_COMPILER_CACHE) return;
      const ssr = config.environments?.ssr;
      if (ssr) ssr.optimizeDeps = { ...ssr.optimizeDeps, noDiscovery: true, include: [] };
    },
  };
}
