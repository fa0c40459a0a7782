import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

/**
 * src/reporting/carried-reports.ts: what a page leaving for a full navigation (contract C3, C4) keeps for the
 * tab's next page. Each page is a fresh copy of the modules (one document each) over one sessionStorage (the
 * tab's); the browser suite (tests/platform/browser/reporting.spec.ts) sends them through the SDK for real.
 */

/** One document of the tab: its own module instances, reporting on with `release` (undefined: off). */
async function page(release: string | undefined) {
  vi.resetModules();
  const { reportingRelease } = await import("../../src/reporting/reporting-release");
  reportingRelease.value = release;
  return import("../../src/reporting/carried-reports");
}

let storage: Map<string, string>;

beforeEach(() => {
  storage = new Map();
  vi.stubGlobal("sessionStorage", {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("reports carried to the tab's next page", () => {
  test("the next page takes each once, tagged with the release the failure happened in", async () => {
    const left = await page("release-1");
    left.reportAcrossNavigation("its route code did not load", { route: "/items/:id" });
    const next = await page("release-2");
    expect(next.takeCarriedReports()).toEqual([
      {
        message: "its route code did not load",
        tags: { route: "/items/:id", "failed.release": "release-1" },
      },
    ]);
    expect(next.takeCarriedReports()).toEqual([]);
    expect((await page("release-2")).takeCarriedReports()).toEqual([]);
  });

  test("the page that wrote one takes none, even an earlier page's: it is unloading and would send nothing", async () => {
    (await page("r")).reportAcrossNavigation("first", {});
    const leaving = await page("r");
    leaving.reportAcrossNavigation("second", {});
    expect(leaving.takeCarriedReports()).toEqual([]);
    expect((await page("r")).takeCarriedReports().map((report) => report.message)).toEqual([
      "first",
      "second",
    ]);
  });

  test("at most five wait; nothing is kept with reporting off; storage that holds anything else is empty", async () => {
    for (let index = 0; index < 7; index++) (await page("r")).reportAcrossNavigation(`report ${index}`, {});
    expect(await (await page("r")).takeCarriedReports()).toHaveLength(5);

    (await page(undefined)).reportAcrossNavigation("reporting off", {});
    expect(storage.size).toBe(0);

    storage.set("edge-platform:carried-reports", "{not json");
    expect((await page("r")).takeCarriedReports()).toEqual([]);
    storage.set("edge-platform:carried-reports", JSON.stringify([{ message: "m", tags: { n: 1 } }, "x"]));
    expect((await page("r")).takeCarriedReports()).toEqual([]);
  });

  test("without storage (a browser that refuses it), nothing throws", async () => {
    vi.stubGlobal("sessionStorage", undefined);
    const left = await page("r");
    expect(() => left.reportAcrossNavigation("m", {})).not.toThrow();
    expect((await page("r")).takeCarriedReports()).toEqual([]);
  });
});
