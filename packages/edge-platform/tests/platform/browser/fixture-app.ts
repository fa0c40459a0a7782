import { type ServedBuild, serveBuild } from "../../../src/local-server/serve-build.ts";
import {
  FIXTURE_BUILD_DIRECTORY,
  TEST_VARS,
  UNLIMITED_FOR_TESTS,
  UNLIMITED_PURGES,
} from "../../../src/testing/build-under-test.ts";
import { test as base } from "../../../src/testing/playwright";
import { SERVER_START_TIMEOUT_MS } from "../../support/server-start.ts";

export {
  dataRequests,
  expect,
  holdRequests,
  isSameDocument,
  linksNeverVisible,
  markDocument,
  navigateWithRouter,
  recordCspViolations,
  waitForHydration,
} from "../../../src/testing/playwright";

export { SERVER_START_TIMEOUT_MS };

/**
 * The browser tests of the platform's navigation, against the fixture app (packages/edge-platform/fixture/README.md) served in
 * workerd: one server per Playwright worker, and `page.goto("/links")` goes to it (baseURL).
 */
export const test = base.extend<object, { fixtureApp: ServedBuild }>({
  fixtureApp: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      // One server for a Playwright worker's every test: far more posts than one visitor's.
      const app = await serveBuild({
        buildDirectory: FIXTURE_BUILD_DIRECTORY,
        vars: TEST_VARS,
        rateLimits: UNLIMITED_FOR_TESTS,
        workersCache: UNLIMITED_PURGES,
      });
      await use(app);
      await app.close();
    },
    { scope: "worker", timeout: SERVER_START_TIMEOUT_MS },
  ],
  baseURL: async ({ fixtureApp }, use) => use(fixtureApp.url.href),
});

/** How the document in the tab was loaded: "navigate" for a full browser navigation. */
export function documentLoad(page: import("@playwright/test").Page) {
  return page.evaluate(() => {
    const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    return { type: entry?.type, url: entry?.name };
  });
}

/**
 * The fixture page a prefetch request is for: page data by its path, route code by its file name (a route's
 * module, the modules it imports, its CSS). Anything else: undefined.
 */
export function targetOf(path: string): string | undefined {
  const data = /^\/(?:(_root)|(.+))\.data$/.exec(path);
  if (data) return data[1] ? "/" : `/${data[2]}`;
  const code = /^\/assets\/(about|now|items|item|glossary-term|glossary|messages|slow)-[^/]+\.(js|css)$/.exec(
    path,
  );
  if (!code) return undefined;
  return { item: "/items/:id", "glossary-term": "/glossary/:slug" }[code[1] ?? ""] ?? `/${code[1]}`;
}
