import {
  dataRequests,
  expect,
  isSameDocument,
  linksNeverVisible,
  markDocument,
  test,
  waitForHydration,
} from "edge-platform/testing/playwright";

/**
 * The product's navigation controls (app/components/navigation-controls.tsx) drive the router verbs of
 * packages/edge-platform/docs/contract.md C2 with React Router's own useNavigate and useRevalidator, and
 * prefetch with the platform's usePrefetch. Prefetch, the full-navigation fallbacks (C3, C4) and the route
 * announcer are the platform's, tested on the fixture app
 * (packages/edge-platform/tests/platform/browser/link-prefetch.spec.ts, navigation.spec.ts).
 */

test.describe("the router verbs (packages/edge-platform/docs/contract.md C2)", () => {
  test("refresh, push, back, forward and replace, all without a document load", async ({ page }) => {
    await page.goto("/about");
    await waitForHydration(page);
    await markDocument(page);
    // /about's own heading, whatever it says: this test is /now's buttons', not /about's.
    const about = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
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
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(about);
    await page.goForward();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");

    await page.getByRole("button", { name: "Replace with /glossary" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
    expect(await page.evaluate(() => history.length)).toBe(start + 1);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(about);
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
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Now");
    expect(requests).toEqual(["/about.data"]);
  });
});
