import {
  expect,
  isSameDocument,
  markDocument,
  navigateWithRouter,
  test,
  waitForHydration,
} from "edge-platform/testing/playwright";

/** A shared page in real Chromium, behind the local Workers Cache: /messages/latest, purged by posting (packages/edge-platform/docs/caching.md). */

function unique(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 10)}`;
}

test("a cached page is a hit on repeat, carries no nonce and hydrates under its hashed policy", async ({
  page,
}) => {
  // The first request stores the page; a later one is answered from the cache.
  await expect
    .poll(async () => (await page.request.get("/messages/latest")).headers()["cf-cache-status"])
    .toBe("HIT");
  const response = await page.goto("/messages/latest");
  expect(response?.headers()["cf-cache-status"]).toBe("HIT");
  expect(response?.headers()["content-security-policy"]).toMatch(/'sha256-/);
  expect(await response?.text()).not.toContain("nonce=");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Latest messages" })).toBeVisible();
});

test("after posting, the poster's next page and the next visitor both show the new message", async ({
  page,
  browser,
}) => {
  const text = unique("purged on post");
  await page.goto("/messages/latest");
  await waitForHydration(page);
  await markDocument(page);
  await page.getByRole("link", { name: "Post a message" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Poster");
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Post message" }).click();
  await expect(page.getByRole("status").getByText("Message posted.")).toBeVisible();
  // The poster, client-side: the page's data comes from the Worker, not from an old copy.
  await navigateWithRouter(page, "/messages/latest");
  await expect(page.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
  expect(await isSameDocument(page)).toBe(true);
  // The poster, loading the document.
  await page.reload();
  await expect(page.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
  // The next visitor: another browser context, no cookies.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto("/messages/latest");
  await expect(visitorPage.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
  await visitor.close();
});
