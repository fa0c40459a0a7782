import type { Page, Route } from "@playwright/test";
import {
  documentLoad,
  expect,
  holdRequests,
  isSameDocument,
  markDocument,
  navigateWithRouter,
  test,
  waitForHydration,
} from "./fixture-app";

/**
 * The navigation fallbacks (packages/edge-platform/docs/contract.md C3, C4, C9) and what a screen reader gets from a client navigation,
 * on the fixture's plain React Router links (packages/edge-platform/src/navigation/).
 */

/** A client-side replace, as `<Link replace>` or `navigate(to, { replace: true })` does. */
async function replaceWithRouter(page: Page, to: string): Promise<void> {
  await page.evaluate(async (target) => {
    const router = (
      window as unknown as {
        __reactRouterDataRouter: { navigate(to: string, options: { replace: boolean }): Promise<void> };
      }
    ).__reactRouterDataRouter;
    await router.navigate(target, { replace: true });
  }, to);
}

test.describe("page data that cannot be fetched becomes a full navigation (packages/edge-platform/docs/contract.md C3, C9)", () => {
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
      await page.route("**/items/nrt.data*", async (route) => {
        failed++;
        await fail(route);
      });
      await page.goto("/items");
      await waitForHydration(page);
      await markDocument(page);
      await page.getByRole("link", { name: "Tokyo" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
      expect(failed).toBe(1);
      expect(await isSameDocument(page)).toBe(false);
      expect(await documentLoad(page)).toMatchObject({ type: "navigate" });
      expect(new URL(page.url()).pathname).toBe("/items/nrt");
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

    void replaceWithRouter(page, "/glossary").catch(() => {});
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
    expect(await page.evaluate(() => history.length)).toBe(length);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");

    await waitForHydration(page);
    await page.getByRole("link", { name: "Items", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
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

test.describe("the click the visitor made last wins: a superseded navigation is no failure (packages/edge-platform/docs/contract.md C3)", () => {
  const TOKYO_DATA = "/items/nrt.data";

  /** On /items (reached client-side from `from`), a click on Tokyo whose page data is held. */
  async function clickTokyoAndHoldItsData(page: Page, from: string) {
    await page.goto(from);
    await waitForHydration(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Items" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    await markDocument(page);
    const hold = await holdRequests(page, (path) => path === TOKYO_DATA);
    await page.getByRole("link", { name: "Tokyo" }).click();
    await expect.poll(() => hold.held.length).toBe(1);
    return hold;
  }

  test("a second click while the first page's data is on its way: the second page, client-side", async ({
    page,
  }) => {
    const hold = await clickTokyoAndHoldItsData(page, "/now");
    await page.getByRole("link", { name: "Lagos" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
    // React Router has cancelled Tokyo's request by now; its answer arriving changes nothing.
    await hold.release().catch(() => {});
    await page.waitForTimeout(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
    expect(new URL(page.url()).pathname).toBe("/items/los");
    expect(await isSameDocument(page)).toBe(true);
  });

  test("the Back button while a page's data is on its way: the previous page, client-side", async ({
    page,
  }) => {
    const hold = await clickTokyoAndHoldItsData(page, "/now");
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    await hold.release().catch(() => {});
    await page.waitForTimeout(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    expect(new URL(page.url()).pathname).toBe("/now");
    expect(await isSameDocument(page)).toBe(true);
    // Tokyo never became a history entry: forward is /items again.
    await page.goForward();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    expect(await isSameDocument(page)).toBe(true);
  });

  test("a second click whose page data then fails: the browser loads the second page, not the first", async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(/Failed to load resource/);
    const hold = await clickTokyoAndHoldItsData(page, "/now");
    await page.route("**/items/los.data*", (route) => route.abort("failed"));
    await page.getByRole("link", { name: "Lagos" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
    await hold.release().catch(() => {});
    expect(new URL(page.url()).pathname).toBe("/items/los");
    expect(await isSameDocument(page)).toBe(false);
    expect(await documentLoad(page)).toMatchObject({
      type: "navigate",
      url: expect.stringMatching(/\/items\/los$/),
    });
  });
});

test.describe("the click the visitor made last wins while route code loads (packages/edge-platform/docs/contract.md C4)", () => {
  const ITEM_MODULE = /^\/assets\/item-[^/]+\.js$/;

  /**
   * On /items (reached client-side from /now), a click on Tokyo whose route module is held: the navigation
   * waits in the route-code gate, React Router has not started it.
   */
  async function clickTokyoAndHoldItsCode(page: Page) {
    await page.goto("/now");
    await waitForHydration(page);
    const hold = await holdRequests(page, (path) => ITEM_MODULE.test(path));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Items" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    await markDocument(page);
    await page.getByRole("link", { name: "Tokyo" }).click();
    await expect.poll(() => hold.held.length).toBeGreaterThan(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    return hold;
  }

  /** Every document request from now on (a full navigation makes one). */
  function documentRequests(page: Page): string[] {
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest()) requests.push(request.url());
    });
    return requests;
  }

  test("a second click whose code is ready: the second page, and the first never follows", async ({
    page,
  }) => {
    const hold = await clickTokyoAndHoldItsCode(page);
    const documents = documentRequests(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Now" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    while (hold.held.length > 0) await hold.release();
    await page.waitForTimeout(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    expect(new URL(page.url()).pathname).toBe("/now");
    expect(await isSameDocument(page)).toBe(true);
    expect(documents).toEqual([]);
  });

  test("the Back button while the first page's code loads: the previous page, and the first never follows", async ({
    page,
  }) => {
    const hold = await clickTokyoAndHoldItsCode(page);
    const documents = documentRequests(page);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    while (hold.held.length > 0) await hold.release();
    await page.waitForTimeout(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    expect(new URL(page.url()).pathname).toBe("/now");
    expect(await isSameDocument(page)).toBe(true);
    // Tokyo never became a history entry: forward is /items again.
    await page.goForward();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    expect(await isSameDocument(page)).toBe(true);
    expect(documents).toEqual([]);
  });

  test("the first page's code slower than 3.8 s after a second click: no full navigation to the first", async ({
    page,
  }) => {
    await clickTokyoAndHoldItsCode(page);
    const documents = documentRequests(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Now" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    // Past the route-loading time-out of the click on Tokyo, its code still held.
    await page.waitForTimeout(4_500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    expect(documents).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/now");
    expect(await isSameDocument(page)).toBe(true);
  });

  test("a form submitted while a link's code loads: the submission's page, and the link never follows", async ({
    page,
  }) => {
    const GLOSSARY_MODULE = /^\/assets\/glossary-[\w-]{8}\.js$/;
    const hold = await holdRequests(page, (path) => GLOSSARY_MODULE.test(path));
    await page.goto("/messages");
    await waitForHydration(page);
    await markDocument(page);
    const documents = documentRequests(page);
    const submissionId = await page.locator("input[name=submissionId]").inputValue();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Glossary" }).click();
    await expect.poll(() => hold.held.length).toBeGreaterThan(0);
    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("Message").fill("Hello");
    await page.getByRole("button", { name: "Post message" }).click();
    // The action's redirect back to /messages renders the form again, with a new id.
    await expect(page.locator("input[name=submissionId]")).not.toHaveValue(submissionId);
    while (hold.held.length > 0) await hold.release();
    await page.waitForTimeout(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Messages");
    expect(new URL(page.url()).pathname).toBe("/messages");
    expect(await isSameDocument(page)).toBe(true);
    expect(documents).toEqual([]);
  });

  test("a refresh while a link's code loads is no new choice of page: the link still follows", async ({
    page,
  }) => {
    const hold = await clickTokyoAndHoldItsCode(page);
    const documents = documentRequests(page);
    // As useRevalidator() does; React Router lets a pending navigation go on
    // through a revalidation too.
    await page.evaluate(async () => {
      const router = (window as unknown as { __reactRouterDataRouter: { revalidate(): Promise<void> } })
        .__reactRouterDataRouter;
      await router.revalidate();
    });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    while (hold.held.length > 0) await hold.release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
    expect(new URL(page.url()).pathname).toBe("/items/nrt");
    expect(await isSameDocument(page)).toBe(true);
    expect(documents).toEqual([]);
  });
});

test.describe("route loading time-out (packages/edge-platform/docs/contract.md C4)", () => {
  const ITEM_MODULE = /\/assets\/item-[^/]+\.js$/;

  /** The item route's code answers 404 once (the navigation under test), then loads (the full load after it). */
  async function failRouteCodeOnce(page: Page): Promise<void> {
    let failed = false;
    await page.route(ITEM_MODULE, async (route) => {
      if (failed) return route.continue();
      failed = true;
      await route.fulfill({ status: 404, body: "" });
    });
  }

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
    await failRouteCodeOnce(page);
    await page.goto("/now");
    await waitForHydration(page);
    await markDocument(page);
    void navigateWithRouter(page, "/items/ams").catch(() => {});
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
    expect(new URL(page.url()).pathname).toBe("/items/ams");
    expect(await documentLoad(page)).toMatchObject({ type: "navigate" });
  });
  test("route code answered 404 on a replace: the browser loads the target page in place of the entry", async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(/Failed to load resource: the server responded with a status of 404/);
    await failRouteCodeOnce(page);
    await page.goto("/about");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Now", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    const length = await page.evaluate(() => history.length);
    await markDocument(page);
    void replaceWithRouter(page, "/items/ams").catch(() => {});
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
    expect(await documentLoad(page)).toMatchObject({ type: "navigate" });
    expect(await page.evaluate(() => history.length)).toBe(length);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  });
});

test.describe("client navigations for screen readers", () => {
  const announcer = (page: Page) => page.locator("#route-announcer");

  test("the new page's title is announced, not on the first load nor on a refresh of the same page", async ({
    page,
  }) => {
    await page.goto("/now");
    await waitForHydration(page);
    await expect(announcer(page)).toHaveAttribute("role", "status");
    const renderedAt = await page.locator("time").getAttribute("dateTime");
    // A refresh (packages/edge-platform/docs/contract.md C2): the loaders run again, the page stays.
    await page.evaluate(async () => {
      const router = (window as unknown as { __reactRouterDataRouter: { revalidate(): Promise<void> } })
        .__reactRouterDataRouter;
      await router.revalidate();
    });
    await expect(page.locator("time")).not.toHaveAttribute("dateTime", renderedAt ?? "");
    await expect(announcer(page)).toHaveText("");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Items" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
    await expect(announcer(page)).toHaveText("Items · Fixture");
    await page.getByRole("link", { name: "Lagos" }).click();
    await expect(announcer(page)).toHaveText("Lagos · Fixture");
  });

  test("focus moves to the new page's h1 on a navigation; back announces and leaves focus alone", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Glossary" }).focus();
    await page.keyboard.press("Enter");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Glossary");
    await expect(heading).toBeFocused();
    // The next Tab continues in the new page, not in the navigation that was left.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "edge", exact: true })).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(heading).toHaveText("edge");
    await expect(heading).toBeFocused();
    await page.goBack();
    await expect(heading).toHaveText("Glossary");
    await expect(announcer(page)).toHaveText("Glossary · Fixture");
    await expect(heading).not.toBeFocused();
  });
});

test.describe("a tap while the page hydrates, on a phone's CPU (packages/edge-platform/docs/navigation.md, 'A tap before the page is ready')", () => {
  /**
   * React Router's modules set `window.__reactRouterVersion` as they run: a setter there sees whether the
   * navigation code's request (Vite's `modulepreload` link for the import) has been made by then. Made after the
   * first load's modules had run, it arrived on slow 4G one round trip after `load`, after a tap at `load`.
   */
  test("its code is asked for before React Router's modules run", async ({ page }) => {
    await page.addInitScript(() => {
      const state = window as unknown as { __navigationCodeAsked?: boolean };
      Object.defineProperty(window, "__reactRouterVersion", {
        configurable: true,
        set(version: string) {
          Object.defineProperty(window, "__reactRouterVersion", { value: version, configurable: true });
          state.__navigationCodeAsked ??=
            document.querySelector('link[rel="modulepreload"][href*="/navigation-install-"]') !== null;
        },
      });
    });
    await page.goto("/");
    const asked = await page.evaluate(
      () => (window as { __navigationCodeAsked?: boolean }).__navigationCodeAsked,
    );
    expect(asked, "the navigation code asked for when React Router's modules ran").toBe(true);
  });

  /**
   * Chromium's CPU slowed 10x, so that hydration lasts long enough to tap in the middle of it: after React's
   * root exists, before hydration's commit marks `<html data-navigation>`. Three pages in a row: React
   * itself hands some of these taps to the link and not others (navigation-client.ts says when).
   */
  test("becomes a client navigation, its code and data first, and no prefetch before them", async ({
    page,
  }) => {
    const cdp = await page.context().newCDPSession(page);
    let taps = 0;
    // A load whose hydration ends before the page's polling sees it is tried again (at most 8 loads).
    for (let load = 0; load < 8 && taps < 3; load++) {
      // Every request of the load, the document's own included: the tapped page's may be made before
      // `evaluate` returns. Nothing prefetches before the navigation code is installed.
      const requests: string[] = [];
      const onRequest = (request: { url(): string; resourceType(): string }) =>
        requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`);
      page.on("request", onRequest);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 10 });
      await page.goto("/", { waitUntil: "commit" });
      const tapped = await page.evaluate(tapWhileHydrating);
      if (tapped) {
        taps++;
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now", { timeout: 20_000 });
      }
      page.off("request", onRequest);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
      if (!tapped) continue;
      expect(await isSameDocument(page), `tap ${taps}: no document load`).toBe(true);
      expect(requests.filter((request) => request.startsWith("document"))).toEqual(["document /"]);
      // The tapped page's data is asked for before anything prefetched for another link.
      const data = requests.filter((request) => request.endsWith(".data"));
      expect(data[0], requests.join("\n")).toBe("fetch /now.data");
    }
    expect(taps, "taps that landed while the page hydrated").toBe(3);
  });
});

/**
 * In the page: once React's root exists and until hydration's commit marks `<html data-navigation>`, marks
 * the document and taps the link to /now. False when hydration was over before the polling saw it.
 */
async function tapWhileHydrating(): Promise<boolean> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    const rootExists = Object.keys(document).some((key) => key.startsWith("__reactContainer"));
    if (rootExists && !document.documentElement.dataset.navigation) {
      (window as unknown as { __documentMark?: boolean }).__documentMark = true;
      [...document.querySelectorAll("a")].find((link) => link.textContent === "Now")?.click();
      return true;
    }
    if (document.documentElement.dataset.navigation) return false;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return false;
}

test.describe("the navigation code that never arrives (packages/edge-platform/docs/contract.md C4)", () => {
  test("a tap while the page hydrates still reaches its page, after the 3.8 s time-out at most", async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(/navigation-install|Failed to fetch dynamically imported module/);
    // The navigation code's request is never answered: the page hydrates without it.
    await page.route(/\/assets\/navigation-install-[^/]+\.js$/, () => {});
    const cdp = await page.context().newCDPSession(page);
    let tapped = false;
    // A load whose hydration ends before the page's polling sees it is tried again (at most 4 loads).
    for (let load = 0; load < 4 && !tapped; load++) {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 10 });
      await page.goto("/", { waitUntil: "commit" });
      tapped = await page.evaluate(tapWhileHydrating);
    }
    expect(tapped, "tapped while the page hydrated").toBe(true);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now", { timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe("/now");
  });
});
