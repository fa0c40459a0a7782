import type { Page, Route } from "@playwright/test";
import { GLOSSARY } from "../../app/data/glossary";
import {
  dataRequests,
  expect,
  holdRequests,
  isSameDocument,
  linksNeverVisible,
  markDocument,
  navigateWithRouter,
  test,
  waitForHydration,
} from "./fixtures";

const DATA = /\.data$/;

/** How the document in the tab was loaded: "navigate" for a full browser navigation. */
function documentLoad(page: Page) {
  return page.evaluate(() => {
    const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    return { type: entry?.type, url: entry?.name };
  });
}

test.describe("prefetch (docs/contract.md C5)", () => {
  test("at most 5 prefetch requests run at once; all complete; a clicked link's prefetch moves ahead", async ({
    page,
  }) => {
    const isPrefetch = (path: string) =>
      /^\/glossary\/.+\.data$/.test(path) || /\/assets\/glossary-term-/.test(path);
    const hold = await holdRequests(page, isPrefetch);
    await page.goto("/glossary");
    await waitForHydration(page);
    await expect.poll(() => hold.held.length).toBe(5);
    await page.waitForTimeout(300);
    expect(hold.held.length).toBe(5);

    // The term module and a few data files go first; let the code through so a click can render.
    await hold.release(hold.held.find((entry) => entry.path.startsWith("/assets/"))?.path);
    await expect.poll(() => hold.held.length).toBe(5);

    // "Single fetch" is last in line: clicking it starts its data at once, outside the five.
    const last = GLOSSARY.at(-1);
    if (!last) throw new Error("no glossary");
    hold.letThrough((path) => path === `/glossary/${last.slug}.data`);
    await markDocument(page);
    await page.getByRole("link", { name: last.term }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(last.term);
    expect(await isSameDocument(page)).toBe(true);

    hold.letThrough(() => true);
    while (hold.held.length > 0) {
      await hold.release();
      await page.waitForTimeout(20);
      expect(hold.held.length).toBeLessThanOrEqual(5);
    }
    const expected = GLOSSARY.map((entry) => `/glossary/${entry.slug}.data`).sort();
    await expect.poll(() => hold.seen.filter((path) => DATA.test(path)).sort()).toEqual(expected);
    expect(hold.mostHeld).toBe(5);
  });

  test("a static page prefetched, then visited within 300 s, makes no data request; after 300 s it does", async ({
    page,
  }) => {
    await page.clock.install();
    const requests = dataRequests(page);
    const termRequests = () => requests.filter((path) => path.startsWith("/glossary/"));
    await page.goto("/glossary");
    await waitForHydration(page);
    await expect.poll(() => termRequests().length).toBe(GLOSSARY.length);
    await page.waitForLoadState("networkidle");
    await markDocument(page);

    requests.length = 0;
    await page.getByRole("link", { name: "Isolate" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Isolate");
    // The new page's "All terms" link prefetches the glossary's data; the term's own came from the cache.
    expect(requests.filter((path) => path !== "/glossary.data")).toEqual([]);

    await page.getByRole("link", { name: "All terms" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
    await page.clock.fastForward("05:01");
    requests.length = 0;
    await page.getByRole("link", { name: "Hydration" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hydration");
    expect(requests).toContain("/glossary/hydration.data");
    expect(await isSameDocument(page)).toBe(true);
  });

  test("a dynamic page fetches its data on every navigation, prefetched or not", async ({ page }) => {
    const requests = dataRequests(page);
    await page.goto("/items");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    // The visible links to static pages had their data prefetched; none of the dynamic ones did.
    expect(requests.filter((path) => path.startsWith("/items"))).toEqual([]);
    await markDocument(page);

    await page.getByRole("link", { name: "Lagos" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edge locations");
    await page.goForward();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
    await page.getByRole("link", { name: "Items", exact: true }).click();
    await page.getByRole("link", { name: "Lagos" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");

    expect(requests.filter((path) => path === "/items/los.data")).toHaveLength(3);
    expect(requests.filter((path) => path === "/items.data")).toHaveLength(2);
    expect(await isSameDocument(page)).toBe(true);
  });

  for (const [name, connection] of [
    ["Save-Data", { saveData: true, effectiveType: "4g" }],
    ["a 2g connection", { saveData: false, effectiveType: "2g" }],
  ] as const) {
    test(`nothing is prefetched on ${name}`, async ({ page }) => {
      await page.addInitScript((value) => {
        Object.defineProperty(navigator, "connection", { value, configurable: true });
      }, connection);
      const requests = dataRequests(page);
      await page.goto("/glossary");
      await waitForHydration(page);
      await page.waitForTimeout(1_000);
      expect(requests).toEqual([]);
    });
  }
});

test.describe("page data that cannot be fetched becomes a full navigation (docs/contract.md C3, C9)", () => {
  const failures: [string, (route: Route) => Promise<void>][] = [
    ["the request fails", (route) => route.abort("failed")],
    [
      "a proxy answers an HTML 502",
      (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }),
    ],
    [
      "the answer is an HTML page",
      (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Sign in to the Wi-Fi</h1>" }),
    ],
    [
      "the body cannot be decoded",
      (route) => route.fulfill({ status: 200, contentType: "text/x-script", body: "garbage" }),
    ],
  ];

  for (const [what, fail] of failures) {
    test(`when ${what}, the browser loads the target page`, async ({ page, pageProblems }) => {
      pageProblems.expect(/Failed to load resource/);
      let failed = 0;
      await page.route("**/items/cpt.data*", async (route) => {
        failed++;
        await fail(route);
      });
      await page.goto("/items");
      await waitForHydration(page);
      await markDocument(page);
      await page.getByRole("link", { name: "Cape Town" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cape Town");
      expect(failed).toBe(1);
      expect(await isSameDocument(page)).toBe(false);
      expect(await documentLoad(page)).toMatchObject({ type: "navigate" });
      expect(new URL(page.url()).pathname).toBe("/items/cpt");
    });
  }

  test("a push stays a push and a replace stays a replace", async ({ page, pageProblems }) => {
    pageProblems.expect(/Failed to load resource/);
    await page.route(/\/(items|glossary)\.data/, (route) => route.abort("failed"));
    await page.goto("/about");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Now", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    const length = await page.evaluate(() => history.length);

    await page.getByRole("button", { name: "Replace with /glossary" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
    expect(await page.evaluate(() => history.length)).toBe(length);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");

    await waitForHydration(page);
    await page.getByRole("link", { name: "Items", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edge locations");
    expect(await page.evaluate(() => history.length)).toBe(length);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  });

  test("a background fetcher whose data fails is not turned into a navigation", async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(/Failed to load resource|net::ERR_FAILED/);
    await page.route("**/items.data*", (route) => route.abort("failed"));
    await page.goto("/now");
    await waitForHydration(page);
    await markDocument(page);
    await page.evaluate(async () => {
      const router = (
        window as unknown as { __reactRouterDataRouter: { fetch(...args: unknown[]): Promise<void> } }
      ).__reactRouterDataRouter;
      await router.fetch("reference-fetcher", "routes/now", "/items");
    });
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe("/now");
    expect(await isSameDocument(page)).toBe(true);
  });
});

test.describe("route loading time-out (docs/contract.md C4)", () => {
  const ITEM_MODULE = /\/assets\/item-[^/]+\.js$/;

  test("route code slower than 3.8 s: the browser loads the target page instead", async ({ page }) => {
    let delayed = false;
    await page.route(ITEM_MODULE, async (route) => {
      if (!delayed) {
        delayed = true;
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
      await route.continue().catch(() => {});
    });
    await page.goto("/now");
    await waitForHydration(page);
    await markDocument(page);
    const started = Date.now();
    const documentRequest = page.waitForRequest((request) => request.isNavigationRequest(), {
      timeout: 10_000,
    });
    void navigateWithRouter(page, "/items/ams").catch(() => {});
    await documentRequest;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(3_500);
    expect(elapsed).toBeLessThan(5_000);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
    expect(new URL(page.url()).pathname).toBe("/items/ams");
    expect(await documentLoad(page)).toMatchObject({ type: "navigate" });
  });

  test("route code that takes 1 s: still a client-side navigation", async ({ page }) => {
    await page.route(ITEM_MODULE, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await page.goto("/now");
    await waitForHydration(page);
    await markDocument(page);
    await navigateWithRouter(page, "/items/ams");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
    expect(await isSameDocument(page)).toBe(true);
  });

  test("route code answered 404: the browser loads the target page, not the old one again", async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(/Failed to load resource: the server responded with a status of 404/);
    let failed = false;
    await page.route(ITEM_MODULE, async (route) => {
      if (failed) return route.continue();
      failed = true;
      await route.fulfill({ status: 404, body: "" });
    });
    await page.goto("/now");
    await waitForHydration(page);
    await markDocument(page);
    void navigateWithRouter(page, "/items/ams").catch(() => {});
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
    expect(new URL(page.url()).pathname).toBe("/items/ams");
    expect(await documentLoad(page)).toMatchObject({ type: "navigate" });
  });
});

test.describe("the router verbs (docs/contract.md C2)", () => {
  test("refresh, push, back, forward and replace, all without a document load", async ({ page }) => {
    await page.goto("/about");
    await waitForHydration(page);
    await markDocument(page);
    await page.getByRole("link", { name: "Now", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    const start = await page.evaluate(() => history.length);
    const time = () => page.locator("time").getAttribute("dateTime");

    // refresh: the loader runs again, same entry, same document, client state kept.
    const before = await time();
    await page.waitForTimeout(5);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(time).not.toBe(before);
    expect(await page.evaluate(() => history.length)).toBe(start);

    await page.getByRole("button", { name: "Push /items" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edge locations");
    expect(await page.evaluate(() => history.length)).toBe(start + 1);

    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    await page.getByRole("button", { name: "Forward" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edge locations");
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
    await page.goForward();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");

    await page.getByRole("button", { name: "Replace with /glossary" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
    expect(await page.evaluate(() => history.length)).toBe(start + 1);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
    expect(await isSameDocument(page)).toBe(true);
  });

  test("prefetch queues the page's code and static data, so visiting it makes no request", async ({
    page,
  }) => {
    await linksNeverVisible(page);
    const requests = dataRequests(page);
    await page.goto("/now");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    expect(requests).toEqual([]);
    await page.getByRole("button", { name: "Prefetch /about" }).click();
    await expect.poll(() => requests).toEqual(["/about.data"]);
    await page.getByRole("link", { name: "About", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
    expect(requests).toEqual(["/about.data"]);
  });
});
