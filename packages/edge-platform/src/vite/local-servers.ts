import { resolve } from "node:path";
import type { Plugin, UserConfig } from "vite";
import { allowedHostsFrom } from "../local-server/allowed-hosts.ts";

/**
 * How Vite's own servers behave: `npm run dev`'s, and the preview server React Router pre-renders through
 * during a build (with its child compiler inside). Which hosts they answer, what their watcher ignores, and
 * what the Worker's `request.cf` is under `npm run dev`.
 */
export function localServers(): Plugin {
  return {
    name: "edge-platform:local-servers",
    config(_config, { command }): UserConfig {
      // The Worker's `request.cf` under `npm run dev` is Miniflare's placeholder rather than the sample
      // Miniflare would otherwise download from workers.cloudflare.com at each start: offline that download
      // waits, then prints a warning and a stack ("Unable to fetch the `Request.cf` object!") before falling
      // back to the same placeholder. @cloudflare/vite-plugin has no option for it, only Miniflare's variable,
      // read when the Worker starts (after this hook). `CLOUDFLARE_CF_FETCH_ENABLED=true npm run dev` downloads.
      if (command === "serve") process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
      return {
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
      };
    },
  };
}
