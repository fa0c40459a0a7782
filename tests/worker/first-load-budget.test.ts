import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { measureFirstLoad } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * At most 111 KiB gzip on `/`. React 19 and React Router 7 alone are about 104.7 KiB; everything every page
 * needs sits in one chunk (packages/edge-platform/src/vite/first-load.ts), which compresses better than six.
 * docs/PERFORMANCE.md, "First load", says where the bytes go. The last KiB holds what reports a browser
 * failure outside React Router's route boundaries (React's error callbacks, the document's own boundary): the
 * Next.js 16 anchor loads about 139 KB for the same page.
 */
const FIRST_LOAD_BUDGET_BYTES = 111 * 1024;
/*
 * The budget holds the debug ID each first-load file registers so Sentry can read its stacks
 * (docs/decisions/009-source-maps.md, about 92 bytes gzip per file): the root route's module joined the
 * first-load chunk (every page loads it), so `/` pays for three IDs, not four, and stays under 110 KiB.
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

describe("first-load JavaScript budget", () => {
  test("/ loads at most 111 KiB of JavaScript (gzip -9), debug IDs included: scripts, modulepreloads and inline scripts", async () => {
    const firstLoad = await measureFirstLoad(app.url, "/");
    expect(firstLoad.files.length).toBeGreaterThan(3);
    expect(firstLoad.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  test.each(["/", "/now"])("the first load of %s holds no Sentry code", async (path) => {
    const firstLoad = await measureFirstLoad(app.url, path);
    expect(firstLoad.files.filter((file) => file.hasSentry).map((file) => file.url)).toEqual([]);
  });
});
