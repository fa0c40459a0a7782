import type { Browser, Page } from "@playwright/test";
import { SCROLL_POSITIONS_STORAGE_KEY } from "../../../src/scroll-restoration.tsx";
import { expect, test, waitForHydration } from "./fixture-app";

/**
 * The platform's scroll restoration (src/scroll-restoration.tsx): React Router's, with a script before the
 * first paint that does nothing for a new history entry. A phone-sized, short viewport, so /links scrolls.
 */
test.use({ viewport: { width: 320, height: 160 } });

/**
 * Empties the page's JavaScript files, so only the document's own inline scripts do anything: the modules
 * load, and nothing hydrates.
 */
async function withoutScriptFiles(page: Page): Promise<void> {
  await page.route(/\/assets\/.+\.js$/, (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
  );
}

/**
 * Loads `path` and waits for it to hydrate, then scrolls it to the middle of what it can scroll as the server
 * renders it (a script before hydration can restore no further), and says where it is.
 */
async function openScrolledHalfWay(page: Page, browser: Browser, path: string): Promise<number> {
  await page.goto(path);
  await waitForHydration(page);
  const served = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize() });
  let range: number;
  try {
    const plain = await served.newPage();
    await plain.goto(page.url());
    range = await plain.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  } finally {
    await served.close();
  }
  const y = Math.floor(range / 2);
  expect(y).toBeGreaterThan(10);
  await page.evaluate((y) => window.scrollTo(0, y), y);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
  return y;
}

test("a visitor's first load: the script before the first paint reads no storage and writes no history", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __calls: string[] }).__calls = calls;
    const { getItem } = Storage.prototype;
    Storage.prototype.getItem = function (this: Storage, key: string) {
      calls.push(`getItem ${key}`);
      return getItem.call(this, key);
    };
    const { replaceState } = History.prototype;
    History.prototype.replaceState = function (this: History, ...args: Parameters<History["replaceState"]>) {
      calls.push("replaceState");
      return replaceState.apply(this, args);
    };
  });
  await withoutScriptFiles(page);
  await page.goto("/links");
  // The document's inline scripts have all run; the module scripts never will.
  await page.waitForLoadState("load");
  expect(await page.evaluate(() => (window as unknown as { __calls: string[] }).__calls)).toEqual([]);
  expect(await page.evaluate(() => history.state)).toBeNull();
});

test("a new entry is keyed before the router reads it, and each new entry gets its own key", async ({
  page,
}) => {
  const keys: string[] = [];
  for (const path of ["/links", "/about"]) {
    await page.goto(path);
    await waitForHydration(page);
    const { entry, router } = await page.evaluate(() => ({
      entry: (history.state as { key?: string } | null)?.key,
      // The router's own first location (React Router keys an unkeyed entry "default").
      router: (window as unknown as { __reactRouterDataRouter: { state: { location: { key: string } } } })
        .__reactRouterDataRouter.state.location.key,
    }));
    expect(entry).toMatch(/^[0-9a-v]+$/);
    expect(router).toBe(entry);
    keys.push(entry ?? "");
  }
  expect(keys[0]).not.toBe(keys[1]);
});

test("back to an entry left by a client navigation: its position is restored before any script file runs", async ({
  page,
  browser,
}) => {
  const y = await openScrolledHalfWay(page, browser, "/items");
  // A client navigation: React Router keeps the position of the entry it leaves (in memory until pagehide).
  await page.getByRole("link", { name: "Amsterdam" }).click();
  await page.waitForURL("**/items/ams");
  // A document navigation away: React Router saves the positions to sessionStorage on pagehide.
  await page.goto("/now");
  const saved = await page.evaluate(
    (storageKey) => JSON.parse(sessionStorage.getItem(storageKey) ?? "{}") as Record<string, number>,
    SCROLL_POSITIONS_STORAGE_KEY,
  );
  expect(Object.values(saved)).toContain(y);
  // Back two entries at once, to /items: a new document, whose entry the browser does not restore itself
  // (React Router had set it to manual scroll restoration). Without script files, only the document's script
  // can. (One entry at a time would load /items/ams unhydrated, and from it /items is the same document.)
  await withoutScriptFiles(page);
  await page.evaluate(() => history.go(-2));
  await page.waitForURL("**/items");
  await page.waitForLoadState("load");
  expect(await page.evaluate(() => window.scrollY)).toBe(y);
});

test("a document navigation right after a client navigation's commit keeps the position of the entry left", async ({
  page,
  browser,
}) => {
  const y = await openScrolledHalfWay(page, browser, "/items");
  // The page is hidden (a reload, another site) as soon as React has put /items/ams on screen, before its passive
  // effects run: a microtask after the commit's DOM change, as a document navigation that starts then finds it.
  // What React Router's pagehide listener saves is read at once.
  await page.evaluate((storageKey) => {
    const observer = new MutationObserver(() => {
      if (document.querySelector("h1")?.textContent !== "Amsterdam") return;
      observer.disconnect();
      window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
      document.documentElement.dataset.savedAtPagehide = sessionStorage.getItem(storageKey) ?? "{}";
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, SCROLL_POSITIONS_STORAGE_KEY);
  await page.getByRole("link", { name: "Amsterdam" }).click();
  const saved = await page.locator("html[data-saved-at-pagehide]").getAttribute("data-saved-at-pagehide");
  const positions = JSON.parse(saved ?? "{}") as Record<string, number>;
  // The entry left keeps its position, and the entry on screen gets its own.
  expect(Object.values(positions).sort((a, b) => a - b)).toEqual([0, y]);
});

test("a reload keeps the position, with the page hydrated", async ({ page, browser }) => {
  const y = await openScrolledHalfWay(page, browser, "/links");
  await page.reload();
  await waitForHydration(page);
  expect(await page.evaluate(() => window.scrollY)).toBe(y);
});
