import { afterEach, describe, expect, test, vi } from "vitest";
import type { CachePurger } from "../../src/page-cache/cache-purger.ts";
import { purgePages } from "../../src/page-cache/purge.server.ts";
import { getRequestContext } from "../../src/request-context.ts";
import { requestScope } from "../support/request-scope.ts";

function withPurger(purger: CachePurger | undefined) {
  const { context } = requestScope();
  getRequestContext(context).cachePurger = purger;
  return context;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("purgePages: where the writer goes next", () => {
  test("a purge the cache made sends the writer to the page itself", async () => {
    const purge = await purgePages(
      withPurger(async () => ({ success: true, errors: [] })),
      { tags: ["notes"] },
    );
    expect(purge.purged).toBe(true);
    expect(purge.location("/notes")).toBe("/notes");
  });

  test.each([
    ["refused", (async () => ({ success: false, errors: [{ code: 1, message: "no" }] })) as CachePurger],
    [
      "that could not be asked (the API threw)",
      (async () => {
        throw new Error("Network connection lost.");
      }) as CachePurger,
    ],
  ])("a purge %s is logged and sends the writer where no copy answers", async (_, purger) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const purge = await purgePages(withPurger(purger), { tags: ["notes"] });
    expect(purge.purged).toBe(false);
    expect(purge.location("/notes")).toMatch(/^\/notes\?fresh=[0-9a-z]+$/);
    expect(logged.mock.calls.map(([line]) => JSON.parse(String(line)).event)).toEqual([
      "page_cache_purge_failed",
    ]);
  });

  test("with no cache in front of the Worker nothing needs purging", async () => {
    const purge = await purgePages(withPurger(undefined), { tags: ["notes"] });
    expect(purge.location("/notes")).toBe("/notes");
  });
});
