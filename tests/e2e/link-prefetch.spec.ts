import type { Page } from "@playwright/test";
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

/**
 * docs/contract.md C5's default: same-origin links prefetch once they are visible, through the bounded queue, in the
 * order they appear; intent moves a link ahead; Save-Data / 2g and `prefetch="none"` switch it off; and
 * nothing is requested twice, even when a prefetch races the click (app/platform/navigation/link-prefetch.ts).
 */

/** The page a prefetch request is for: route code by its file name, page data by its path. */
function targetOf(path: string): string | undefined {
  const data = /^\/(?:(_root)|(.+))\.data$/.exec(path);
  if (data) return data[1] ? "/" : `/${data[2]}`;
  const code = /^\/assets\/(about|now|items|glossary|messages)-[^/]+\.(js|css)$/.exec(path);
  return code ? `/${code[1]}` : undefined;
}

/** Appends a link to `main` (as a product page would render it), optionally below the fold. */
async function appendLink(page: Page, href: string, mode: string, { belowFold = false } = {}) {
  await page.evaluate(
    ({ href, mode, belowFold }) => {
      const main = document.getElementById("main");
      if (!main) throw new Error("no main");
      if (belowFold) {
        const spacer = document.createElement("div");
        spacer.style.height = "4000px"; // CSSOM, not a style attribute: the policy allows it
        main.appendChild(spacer);
      }
      const link = document.createElement("a");
      link.href = href;
      link.dataset.prefetch = mode;
      link.textContent = `appended ${href}`;
      main.appendChild(link);
    },
    { href, mode, belowFold },
  );
}

test("visible links are prefetched in the order they appear, at most 5 at once; intent moves a link ahead", async ({
  page,
}) => {
  const hold = await holdRequests(page, (path) => targetOf(path) !== undefined);
  await page.goto("/");
  await waitForHydration(page);
  await expect.poll(() => hold.held.length).toBe(5);
  await page.waitForTimeout(300);
  expect(hold.held.length).toBe(5);

  // The navigation row, left to right (Home is this page): About's files first.
  expect(hold.held.map(({ path }) => targetOf(path))).toEqual([
    "/about",
    "/about",
    "/about",
    "/now",
    "/items",
  ]);

  // The pointer rests on "Messages", last in line: its code starts as soon as a slot frees.
  await page.getByRole("link", { name: "Messages" }).hover();
  await page.waitForTimeout(300);
  expect(hold.held.length).toBe(5);
  await hold.release();
  await expect.poll(() => hold.held.length).toBe(5);
  expect(targetOf(hold.held.at(-1)?.path ?? "")).toBe("/messages");

  hold.letThrough(() => true);
  while (hold.held.length > 0) await hold.release();
  await page.waitForLoadState("networkidle");
  expect(hold.mostHeld).toBe(5);
  // Every target once, in the order its first file was asked for; no file twice.
  expect([...new Set(hold.seen.map(targetOf))]).toEqual([
    "/about",
    "/now",
    "/items",
    "/messages",
    "/glossary",
  ]);
  expect(new Set(hold.seen).size).toBe(hold.seen.length);
});

test("a prefetched static page is shown without a request; a dynamic one makes exactly one (its data)", async ({
  page,
}) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(requests).toContain("/about.data");
  await markDocument(page);

  requests.length = 0;
  await page.getByRole("link", { name: "About", exact: true }).evaluate((link: HTMLElement) => link.click());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await page.waitForLoadState("networkidle");
  expect(requests.filter((path) => !path.includes("/favicon"))).toEqual([]);

  requests.length = 0;
  await page.getByRole("link", { name: "Now", exact: true }).evaluate((link: HTMLElement) => link.click());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await page.waitForLoadState("networkidle");
  expect(requests.filter((path) => !path.includes("/favicon"))).toEqual(["/now.data"]);
  expect(await isSameDocument(page)).toBe(true);
});

test("a link below the fold is prefetched when it is scrolled into view, not before", async ({ page }) => {
  const requests = dataRequests(page);
  await page.goto("/about");
  await waitForHydration(page);
  await appendLink(page, "/glossary/isolate", "viewport", { belowFold: true });
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
  expect(requests).not.toContain("/glossary/isolate.data");

  await page.getByRole("link", { name: "appended /glossary/isolate" }).scrollIntoViewIfNeeded();
  await expect.poll(() => requests).toContain("/glossary/isolate.data");
});

test('prefetch="none" opts a visible link out; hovering it prefetches nothing either', async ({ page }) => {
  const requests = dataRequests(page);
  await page.goto("/about");
  await waitForHydration(page);
  await appendLink(page, "/glossary/isolate", "none");
  await appendLink(page, "/glossary/hydration", "viewport");
  await expect.poll(() => requests).toContain("/glossary/hydration.data");
  await page.getByRole("link", { name: "appended /glossary/isolate" }).hover();
  await page.waitForTimeout(300);
  await page.waitForLoadState("networkidle");
  expect(requests).not.toContain("/glossary/isolate.data");
});

for (const [name, connection] of [
  ["Save-Data", { saveData: true, effectiveType: "4g" }],
  ["a 2g connection", { saveData: false, effectiveType: "2g" }],
] as const) {
  test(`on ${name}, no visible link is prefetched, code or data`, async ({ page }) => {
    await page.addInitScript((value) => {
      Object.defineProperty(navigator, "connection", { value, configurable: true });
    }, connection);
    const requests: string[] = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    await page.goto("/");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "About", exact: true }).hover();
    await page.waitForTimeout(500);
    expect(requests.filter((path) => targetOf(path) !== undefined)).toEqual([]);
  });
}

test.describe("a prefetch racing the click joins the navigation: nothing is requested twice", () => {
  test("the click comes before the hover's 100 ms are up", async ({ page }) => {
    await linksNeverVisible(page);
    const requests = dataRequests(page);
    // About's code is loaded (its document was), so the click's data request starts at once.
    await page.goto("/about");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Now", exact: true }).evaluate((link: HTMLElement) => link.click());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    await page.waitForLoadState("networkidle");
    requests.length = 0;
    // The navigation's data is still on its way when the hover's 100 ms are up.
    await page.route("**/about.data", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    // The pointer arrives and the click follows at once, without focusing the link (a script's click, an
    // assistive technology's): no focus intent, and the hover's 100 ms are not up.
    await page.getByRole("link", { name: "About", exact: true }).evaluate((link: HTMLElement) => {
      link.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      link.click();
    });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
    await page.waitForTimeout(300);
    await page.waitForLoadState("networkidle");
    expect(requests).toEqual(["/about.data"]);
  });

  test("the click comes while the hover's prefetch is on its way", async ({ page }) => {
    await linksNeverVisible(page);
    const hold = await holdRequests(page, (path) => path === "/about.data");
    await page.goto("/now");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    await markDocument(page);
    await page.getByRole("link", { name: "About", exact: true }).hover();
    await expect.poll(() => hold.held.length).toBe(1);
    await page.getByRole("link", { name: "About", exact: true }).click();
    await page.waitForTimeout(200);
    await hold.release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
    await page.waitForLoadState("networkidle");
    expect(hold.seen).toEqual(["/about.data"]);
    expect(await isSameDocument(page)).toBe(true);
  });

  test("intent on a link to the page whose data the navigation is fetching", async ({ page }) => {
    await linksNeverVisible(page);
    const hold = await holdRequests(page, (path) => path === "/glossary/isolate.data");
    await page.goto("/about");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    // The navigation's own request is held; meanwhile intent on a link to the same page asks for it.
    void navigateWithRouter(page, "/glossary/isolate").catch(() => {});
    await expect.poll(() => hold.held.length).toBe(1);
    await appendLink(page, "/glossary/isolate", "intent");
    await page.getByRole("link", { name: "appended /glossary/isolate" }).focus();
    await page.waitForTimeout(200);
    await hold.release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Isolate");
    await page.waitForLoadState("networkidle");
    expect(hold.seen).toEqual(["/glossary/isolate.data"]);
  });
});
