import { resolve } from "node:path";
import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import {
  DEFAULT_FIRST_LOAD_BUDGET_BYTES,
  firstLoadReport,
  firstLoadSources,
  measureFirstLoad,
} from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as productConfig from "../../app/product.config.ts";
import { A_STATIC_PAGE_PER_ROUTE } from "../support/product-pages.ts";

/**
 * The product's first-load budget: what app/product.config.ts sets, or the platform's default
 * (DEFAULT_FIRST_LOAD_BUDGET_BYTES, under what the Next.js 16 anchor loads). React 19 and React Router 7 are
 * most of it, the platform a small share with its own budget
 * (packages/edge-platform/tests/platform/first-load-budget.test.ts); packages/edge-platform/docs/PERFORMANCE.md,
 * "First load", says where the bytes go. Over budget, the failure lists the first load
 * by owner (the platform, the app, each dependency) and its largest modules, from the build's source maps.
 */
// Optional in a product's configuration (the template's leaves it out).
const { FIRST_LOAD_BUDGET_BYTES } = productConfig as { FIRST_LOAD_BUDGET_BYTES?: number };
const BUDGET_BYTES = FIRST_LOAD_BUDGET_BYTES ?? DEFAULT_FIRST_LOAD_BUDGET_BYTES;
const BUILD_DIRECTORY = resolve(import.meta.dirname, "../../build");

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

describe("first-load JavaScript budget", () => {
  test("/ loads no more JavaScript (gzip -9) than the product's budget, debug IDs included: scripts, modulepreloads and inline scripts", async () => {
    const firstLoad = await measureFirstLoad(app.url, "/");
    expect(firstLoad.files.length).toBeGreaterThan(3);
    const where =
      firstLoad.gzipBytes > BUDGET_BYTES ? await firstLoadSources(app.url, "/", BUILD_DIRECTORY) : [];
    expect(firstLoad.gzipBytes, firstLoadReport(where)).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  test("a failing budget names what the first load holds, by owner and module, from the source maps", async () => {
    const modules = await firstLoadSources(app.url, "/", BUILD_DIRECTORY);
    const owners = new Set(modules.map(({ owner }) => owner));
    for (const owner of ["platform", "app", "react-dom", "react-router"]) expect(owners).toContain(owner);
    expect(modules.find(({ source }) => source === "app/root.tsx")?.rawBytes).toBeGreaterThan(0);
    expect(firstLoadReport(modules)).toMatch(/react-dom: \d+ B raw/);
  });

  // A page of each route the product pre-renders (measureFirstLoad refuses a page that does not answer 200).
  test.each(A_STATIC_PAGE_PER_ROUTE)("the first load of %s holds no Sentry code", async (path) => {
    const firstLoad = await measureFirstLoad(app.url, path);
    expect(firstLoad.files.filter((file) => file.hasSentry).map((file) => file.url)).toEqual([]);
  });
});
