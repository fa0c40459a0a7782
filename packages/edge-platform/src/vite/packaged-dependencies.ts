import { sep } from "node:path";
import type { Plugin } from "vite";
import { PACKAGE_SOURCE_DIRECTORY } from "../package-source.ts";

/** What the Worker's and the browser's code of the platform import that is CommonJS, or is not found otherwise. */
const SHARED = [
  "react-dom",
  "react/jsx-runtime",
  "edge-platform > negotiator",
  "edge-platform > cookie",
  "edge-platform > isbot",
  "edge-platform > @formatjs/intl-localematcher",
  "edge-platform > valibot",
];

/**
 * `npm run dev` in a product that installed the platform from a registry (or a tarball), not through a workspace
 * link. Vite pre-bundles dependencies for the dev server and finds what to bundle by scanning the app's
 * sources; it does not look inside a package in node_modules, so the CommonJS the platform's code imports
 * (negotiator, cookie, React DOM) reached workerd unbundled ("module is not defined"). The platform's own code
 * stays out of the pre-bundle (it imports Vite's virtual modules and reads the build's defines) and its
 * dependencies are named for it. Linked from a workspace, Vite scans the platform as the app's own source:
 * nothing to do.
 */
export function packagedDependencies(): Plugin {
  const installed = PACKAGE_SOURCE_DIRECTORY.includes(`${sep}node_modules${sep}`);
  return {
    name: "edge-platform:packaged-dependencies",
    apply: (_config, { command }) => installed && command === "serve",
    configEnvironment(name) {
      if (name !== "ssr" && name !== "client") return;
      const own =
        name === "ssr"
          ? ["edge-platform > @sentry/cloudflare"]
          : ["react-dom/client", "react-router/dom", "edge-platform > @sentry/react"];
      return { optimizeDeps: { exclude: ["edge-platform"], include: [...SHARED, ...own] } };
    },
  };
}
