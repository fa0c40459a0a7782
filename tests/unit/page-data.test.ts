import { describe, expect, test } from "vitest";
import { PREFETCH_STALE_MS_DYNAMIC, PREFETCH_STALE_MS_STATIC } from "../../app/platform/constants";
import { pageDataPath, pageOfDataPath, prefetchStaleTime } from "../../app/platform/navigation/page-data";
import { PageDataCache, toResponse } from "../../app/platform/prefetch/page-data-cache";
import { isStaticPage, STATIC_PAGE_PATHS } from "../../app/platform/static-pages";

describe("page data URLs (React Router's single-fetch names)", () => {
  test.each([
    ["/", "/_root.data"],
    ["/about", "/about.data"],
    ["/about/", "/about.data"],
    ["/items/ams", "/items/ams.data"],
  ])("%s -> %s", (page, data) => {
    expect(pageDataPath(page)).toBe(data);
  });

  test.each([
    ["/_root.data", "/"],
    ["/items/ams.data", "/items/ams"],
    ["/items/ams", undefined],
    ["/app.js", undefined],
  ])("%s is the data of %s", (data, page) => {
    expect(pageOfDataPath(data)).toBe(page);
  });
});

describe("stale times (SPEC C5)", () => {
  test("the constants are those of the contract", () => {
    expect(PREFETCH_STALE_MS_STATIC).toBe(300_000);
    expect(PREFETCH_STALE_MS_DYNAMIC).toBe(0);
  });

  test("static pages are exactly the pre-rendered ones", () => {
    for (const path of STATIC_PAGE_PATHS) expect(isStaticPage(path), path).toBe(true);
    expect(isStaticPage("/about/")).toBe(true);
    expect(isStaticPage("/now")).toBe(false);
    expect(isStaticPage("/items/ams")).toBe(false);
    expect(isStaticPage("/glossary/not-a-term")).toBe(false);
  });

  test("static pages keep prefetched data 300 s, dynamic pages 0 s", () => {
    expect(prefetchStaleTime("/about")).toBe(300_000);
    expect(prefetchStaleTime("/glossary/edge")).toBe(300_000);
    expect(prefetchStaleTime("/now")).toBe(0);
  });
});

describe("PageDataCache", () => {
  const stored = {
    status: 200,
    headers: [["x-a", "1"]] as [string, string][],
    body: new TextEncoder().encode("[1]").buffer,
  };

  test("serves an entry until its stale time has passed, then drops it", () => {
    let now = 1_000;
    const cache = new PageDataCache(() => now);
    cache.set("/about.data", stored, 300_000);
    now += 299_999;
    expect(cache.getFresh("/about.data")).toBe(stored);
    now += 1;
    expect(cache.getFresh("/about.data")).toBeUndefined();
    now -= 1;
    expect(cache.getFresh("/about.data")).toBeUndefined();
  });

  test("never stores data whose stale time is 0", () => {
    const cache = new PageDataCache(() => 0);
    cache.set("/now.data", stored, 0);
    expect(cache.isFresh("/now.data")).toBe(false);
  });

  test("answers the same bytes each time it is read", async () => {
    const first = toResponse(stored);
    const second = toResponse(stored);
    expect(await first.text()).toBe("[1]");
    expect(await second.text()).toBe("[1]");
    expect(second.headers.get("x-a")).toBe("1");
  });
});
