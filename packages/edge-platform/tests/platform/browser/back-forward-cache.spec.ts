import { launchWithBackForwardCache } from "../../../src/testing/chromium.ts";
import { expect, test } from "./fixture-app";

/**
 * Pages rendered per request are `Cache-Control: private, no-store`. Chromium used to keep such
 * pages out of its back/forward cache; it no longer does, so a back navigation to one is still an instant
 * restore of the page as it was, not a new request. Playwright switches the cache off by default
 * (`--disable-back-forward-cache`); this test starts a Chromium with it on, as users have it.
 */
test("a no-store page rendered per request is restored from the back/forward cache", async ({
  playwright,
  baseURL,
}) => {
  const browser = await launchWithBackForwardCache(playwright.chromium);
  try {
    const page = await browser.newPage({ baseURL });
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Page.enable");
    const notRestored: string[] = [];
    cdp.on("Page.backForwardCacheNotUsed", (event) => {
      notRestored.push(...event.notRestoredExplanations.map((explanation) => explanation.reason));
    });

    const first = await page.goto("/now");
    expect(first?.headers()["cache-control"]).toBe("private, no-store");
    await page.waitForFunction(() => document.documentElement.dataset.navigation === "ready");
    await page.evaluate(() => {
      addEventListener("pageshow", (event) => {
        (window as unknown as { __restored?: boolean }).__restored = event.persisted;
      });
    });
    // A document navigation away (a client-side one would keep the same document).
    await page.goto("/about");
    await page.evaluate(() => history.back());
    await page.waitForURL("**/now", { waitUntil: "commit" });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __restored?: boolean }).__restored))
      .toBe(true);
    expect(notRestored).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
});
