import { describe, expect, test } from "vitest";
import { firstLoadModules, type ModuleInfoLike } from "../../src/vite/first-load";

// A browser build's module graph as Rollup describes it: entries, and each module's static imports.
const APP = "/repo/app";
const graph: Record<string, { isEntry?: boolean; importedIds?: string[] }> = {
  "/repo/app/entry.client.tsx": {
    isEntry: true,
    importedIds: ["/repo/packages/edge-platform/src/entry.client.tsx"],
  },
  "/repo/packages/edge-platform/src/entry.client.tsx": {
    importedIds: ["/repo/node_modules/react-dom/client.js"],
  },
  "/repo/node_modules/react-dom/client.js": { importedIds: ["/repo/node_modules/react/index.js"] },
  "/repo/node_modules/react/index.js": {},
  "/repo/app/root.tsx?__react-router-build-client-route": {
    isEntry: true,
    importedIds: ["/repo/app/root.tsx"],
  },
  "/repo/app/root.tsx": {
    importedIds: ["/repo/app/components/site-nav.tsx", "/repo/node_modules/react/index.js"],
  },
  "/repo/app/components/site-nav.tsx": {},
  "/repo/app/routes/home.tsx?__react-router-build-client-route": {
    isEntry: true,
    importedIds: ["/repo/app/routes/home.tsx"],
  },
  "/repo/app/routes/home.tsx": { importedIds: ["/repo/app/components/chart.tsx"] },
  "/repo/app/components/chart.tsx": {},
  // Loaded through import() only: Rollup lists it under dynamicallyImportedIds, not importedIds.
  "/repo/packages/edge-platform/src/reporting/browser-sentry.client.ts": {},
  // Another app's root (a nested directory named like the app) is not this app's root.
  "/repo/app/other/root.tsx": { isEntry: true, importedIds: ["/repo/app/components/chart.tsx"] },
};
const info = (id: string): ModuleInfoLike => {
  const module = graph[id];
  return module ? { isEntry: module.isEntry ?? false, importedIds: module.importedIds ?? [] } : null;
};

describe("firstLoadModules (the first-load chunk follows the app's graph, naming no file)", () => {
  const firstLoad = firstLoadModules(APP, Object.keys(graph), info);

  test("holds what the client entry and the root route import statically, the product's layout included", () => {
    expect([...firstLoad].sort()).toEqual([
      "/repo/app/components/site-nav.tsx",
      "/repo/app/root.tsx",
      "/repo/node_modules/react-dom/client.js",
      "/repo/node_modules/react/index.js",
      "/repo/packages/edge-platform/src/entry.client.tsx",
    ]);
  });

  test("leaves out the entry modules themselves, other routes and what only import() loads", () => {
    for (const id of [
      "/repo/app/entry.client.tsx",
      "/repo/app/root.tsx?__react-router-build-client-route",
      "/repo/app/routes/home.tsx",
      "/repo/app/components/chart.tsx",
      "/repo/packages/edge-platform/src/reporting/browser-sentry.client.ts",
    ]) {
      expect(firstLoad.has(id), id).toBe(false);
    }
  });

  test("an app in another directory has its own root", () => {
    expect(
      firstLoadModules("/repo/app/other", Object.keys(graph), info).has("/repo/app/components/chart.tsx"),
    ).toBe(true);
  });
});
