import {
  dataRequests,
  expect,
  isSameDocument,
  linksNeverVisible,
  markDocument,
  test,
  waitForHydration,
} from "edge-platform/testing/playwright";
import { controlTargets, NAV_LINKS } from "../../../app/components/site-pages.ts";
import { STATIC_PAGES } from "../../support/product-pages.ts";

/**
 * The product's navigation controls (app/components/navigation-controls.tsx) drive the router verbs of
 * packages/edge-platform/docs/contract.md C2 with React Router's own useNavigate and useRevalidator, and
 * prefetch with the platform's usePrefetch. Prefetch, the full-navigation fallbacks (C3, C4) and the route
 * announcer are the platform's, tested on the fixture app
 * (packages/edge-platform/tests/platform/browser/link-prefetch.spec.ts, navigation.spec.ts).
 */

/** The pages /now's controls act on, and a page to arrive at /now from: all from the site's navigation. */
const { prefetch, push, replace } = controlTargets("/now");
const FROM = NAV_LINKS.map(({ to }) => to as string).find((to) => to !== "/now") ?? "/";

test.describe("the router verbs (packages/edge-platform/docs/contract.md C2)", () => {
  test("refresh, push, back, forward and replace, all without a document load", async ({ page }) => {
    if (!push || !replace) throw new Error("/now's controls need two other pages to push and replace with");
    const heading = page.getByRole("heading", { level: 1 });
    await page.goto(FROM);
    await waitForHydration(page);
    await markDocument(page);
    // The other pages' own headings, whatever they say: this test is /now's buttons'.
    const from = (await heading.textContent()) ?? "";
    await page.getByRole("link", { name: "Now", exact: true }).click();
    await expect(heading).toHaveText("Now");
    const start = await page.evaluate(() => history.length);
    const time = () => page.locator("time").getAttribute("dateTime");

    // refresh: the loader runs again, same entry, same document, client state kept.
    const before = await time();
    await page.waitForTimeout(5);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(time).not.toBe(before);
    expect(await page.evaluate(() => history.length)).toBe(start);

    const onPage = async (path: string) => {
      await expect(page).toHaveURL((url) => url.pathname === path);
      await expect(heading).not.toHaveText("Now");
    };
    await page.getByRole("button", { name: `Push ${push}` }).click();
    await onPage(push);
    expect(await page.evaluate(() => history.length)).toBe(start + 1);

    await page.goBack();
    await expect(heading).toHaveText("Now");
    await page.getByRole("button", { name: "Forward" }).click();
    await onPage(push);
    await page.goBack();
    await expect(heading).toHaveText("Now");
    await page.getByRole("button", { name: "Back" }).click();
    await expect(heading).toHaveText(from);
    await page.goForward();
    await expect(heading).toHaveText("Now");

    await page.getByRole("button", { name: `Replace with ${replace}` }).click();
    await onPage(replace);
    expect(await page.evaluate(() => history.length)).toBe(start + 1);
    await page.goBack();
    await expect(heading).toHaveText(from);
    expect(await isSameDocument(page)).toBe(true);
  });

  test("prefetch queues a pre-rendered page's data, so visiting it asks for none; a page rendered per request asks for its own", async ({
    page,
  }) => {
    if (!prefetch) throw new Error("/now's controls need another page to prefetch");
    await linksNeverVisible(page);
    const requests = dataRequests(page);
    const response = await page.goto("/now");
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    expect(requests).toEqual([]);
    // A pre-rendered page's data is prefetched and reused for 300 s; a page rendered per request's is never
    // prefetched: its visit asks for it (C5).
    const data = [`${prefetch}.data`];
    const prerendered = STATIC_PAGES.includes(prefetch);
    await page.getByRole("button", { name: `Prefetch ${prefetch}` }).click();
    if (prerendered) await expect.poll(() => requests).toEqual(data);
    await page.locator(`a[href="${prefetch}"]`).first().click();
    await expect(page).toHaveURL((url) => url.pathname === prefetch);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Now");
    expect(requests).toEqual(data);
  });
});
