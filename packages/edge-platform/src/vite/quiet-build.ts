import type { Plugin, UserConfig } from "vite";

/**
 * Rolldown's note that plugins' callbacks took most of a build names React Router's virtual modules on a busy
 * machine: nothing a product can act on, so the build does not print it. `npm run bench:scale` times the
 * build's phases (packages/edge-platform/docs/PERFORMANCE.md, "Static pages at scale").
 */
export function quietBuild(): Plugin {
  return {
    name: "edge-platform:quiet-build",
    config(): UserConfig {
      return { build: { rolldownOptions: { checks: { bundlerTimings: false } } } };
    },
  };
}
