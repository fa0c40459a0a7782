import { describe, expect, test } from "vitest";
import { PREFETCH_STALE_MS_DYNAMIC, PREFETCH_STALE_MS_STATIC } from "../../src/constants";
import { prefetchStaleTime } from "../../src/navigation/page-data";
import { PageDataCache, toResponse } from "../../src/prefetch/page-data-cache";

describe("stale times (packages/edge-platform/docs/contract.md C5)", () => {
  test("the constants are those of the contract", () => {
    expect(PREFETCH_STALE_MS_STATIC).toBe(300_000);
    expect(PREFETCH_STALE_MS_DYNAMIC).toBe(0);
  });

  test("pages of a static route keep prefetched data 300 s, every other page 0 s", () => {
    const staticRoutes = new Set(["routes/about", "routes/glossary-term"]);
    expect(prefetchStaleTime("routes/about", staticRoutes)).toBe(300_000);
    expect(prefetchStaleTime("routes/glossary-term", staticRoutes)).toBe(300_000);
    expect(prefetchStaleTime("routes/now", staticRoutes)).toBe(0);
    expect(prefetchStaleTime(undefined, staticRoutes)).toBe(0);
  });

  test("outside a build nothing is static", () => {
    expect(prefetchStaleTime("routes/about")).toBe(0);
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
