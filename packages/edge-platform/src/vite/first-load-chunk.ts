import type { Plugin, UserConfig } from "vite";
import type { AppUnderBuild } from "./app-under-build.ts";
import { firstLoadModules } from "./first-load.ts";

/**
 * One chunk for the modules every page loads (packages/edge-platform/src/vite/first-load.ts): one file
 * compresses better than several, and each file costs a debug ID, which the first-load budget
 * (packages/edge-platform/docs/PERFORMANCE.md, "First load") has no room for.
 *
 * The set is read from the browser build's own module graph once it is complete (buildEnd) and handed to
 * the chunk rule, which Rolldown calls only afterwards, when it forms chunks, with a module's id alone: the
 * one piece of state between two hooks of the same build.
 */
export function firstLoadChunk(app: AppUnderBuild): Plugin {
  let firstLoad: ReadonlySet<string> = new Set();
  return {
    name: "edge-platform:first-load-chunk",
    apply: "build",
    config(): UserConfig {
      return {
        environments: {
          client: {
            build: {
              rolldownOptions: {
                output: {
                  codeSplitting: {
                    groups: [{ name: "first-load", test: (id: string) => firstLoad.has(id) }],
                  },
                },
              },
            },
          },
        },
      };
    },
    buildEnd() {
      if (this.environment.name !== "client") return;
      firstLoad = firstLoadModules(app.appDirectory, this.getModuleIds(), (id) => this.getModuleInfo(id));
      if (firstLoad.size === 0)
        this.error("No first-load modules: no client entry or root route in the graph");
    },
  };
}
