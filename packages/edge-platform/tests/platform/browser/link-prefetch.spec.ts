import type { Page } from "@playwright/test";
import {
  dataRequests,
  expect,
  holdRequests,
  isSameDocument,
  linksNeverVisible,
  markDocument,
  navigateWithRouter,
  targetOf,
  test,
  waitForHydration,
} from "./fixture-app";

/**
 * packages/edge-platform/docs/contract.md C5's default on React Router's own links (packages/edge-platform/docs/decisions/015-react-router-links.md): every
 * same-origin Link and NavLink is prefetched once visible, through the bounded queue, in the order the links
 * appear; intent moves a link ahead; React Router's `prefetch` prop (decision 020) or `data-prefetch` picks
 * another mode or opts out, and a `reloadDocument` link is never prefetched; Save-Data / 2g switch it
 * off; nothing is requested twice, even when a prefetch races the click; route CSS is prefetched with a hint
 * the browser does not warn about (packages/edge-platform/src/navigation/link-prefetch.ts).
 */

const isPrefetch = (path: string) => targetOf(path) !== undefined;

/** Appends a plain link to `main`, as a product page would render one, optionally below the fold. */
async function appendLink(page: Page, href: string, mode: string | null, { belowFold = false } = {}) {
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
      if (mode) link.dataset.prefetch = mode;
      link.textContent = `appended ${href}`;
      main.appendChild(link);
    },
    { href, mode, belowFold },
  );
}

/**
 * Every `<link>` element the page gets whose target is page data (`as="fetch"`, a `.data` URL): React Router's
 * PrefetchPageLinks renders one for each prefetched page with a loader; the platform fetches data itself.
 */
async function dataLinkElements(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const found: string[] = [];
    (window as unknown as { __dataLinks: string[] }).__dataLinks = found;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLLinkElement && (node.as === "fetch" || node.href.includes(".data")))
            found.push(node.outerHTML);
    }).observe(document, { subtree: true, childList: true });
  });
  return () => page.evaluate(() => (window as unknown as { __dataLinks: string[] }).__dataLinks);
}

test("a page of React Router links, every prefetch prop: at most 5 in flight, each file once, intent queued", async ({
  page,
}) => {
  const dataLinks = await dataLinkElements(page);
  const hold = await holdRequests(page, isPrefetch);
  await page.goto("/links");
  await waitForHydration(page);
  await expect.poll(() => hold.held.length).toBe(5);
  await page.waitForTimeout(300);
  expect(hold.held.length).toBe(5);

  // Intent on the prefetch="intent" link while the queue is full: it waits for a slot like any prefetch.
  await page.getByRole("link", { name: "worker, on intent" }).hover();
  await page.waitForTimeout(300);
  expect(hold.held.length).toBe(5);
  expect(hold.seen).not.toContain("/glossary/worker.data");

  hold.letThrough(() => true);
  while (hold.held.length > 0) {
    await hold.release();
    await page.waitForTimeout(20);
    expect(hold.held.length).toBeLessThanOrEqual(5);
  }
  await page.waitForLoadState("networkidle");
  // prefetch="none" and reloadDocument: never, hovered or not.
  await page.getByRole("link", { name: "isolate, never prefetched" }).hover();
  await page.getByRole("link", { name: "slow, a document load" }).hover();
  await page.waitForTimeout(300);
  await page.waitForLoadState("networkidle");

  expect(hold.mostHeld).toBe(5);
  expect(new Set(hold.seen).size).toBe(hold.seen.length);
  expect(hold.seen.filter((path) => path === "/glossary/worker.data")).toHaveLength(1);
  // prefetch="render" fetches a link that is never visible (it is in a closed <details>).
  await expect(page.getByRole("link", { name: "edge, on render" })).toBeHidden();
  // The header's Links, the page's NavLinks and Links: code for every page, data for the static ones.
  expect(new Set(hold.seen.map(targetOf))).toEqual(
    new Set([
      "/",
      "/about",
      "/now",
      "/items",
      "/glossary",
      "/messages",
      "/glossary/:slug",
      "/items/:id",
      "/glossary/edge",
      "/glossary/worker",
    ]),
  );
  // More than the queue's five, so the bound was reached and held.
  expect(hold.seen.length).toBeGreaterThan(10);
  // React Router's own prefetch never ran: none of its <link> tags.
  expect(await dataLinks()).toEqual([]);
});

test('prefetch="intent" waits for intent; prefetch="none" and reloadDocument never prefetch, hovered or not; the site navigation\'s NavLink marks the current page itself and is not prefetched', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto("/links");
  await waitForHydration(page);
  const sections = page.getByRole("navigation", { name: "Sections" });
  await expect(sections.getByRole("link", { name: "This page" })).toHaveAttribute("aria-current", "page");
  await expect(sections.getByRole("link", { name: "About page" })).not.toHaveAttribute("aria-current");
  await expect.poll(() => requests).toContain("/glossary/edge.data");
  await page.waitForLoadState("networkidle");
  expect(requests).not.toContain("/glossary/worker.data");

  await page.getByRole("link", { name: "isolate, never prefetched" }).hover();
  await page.getByRole("link", { name: "isolate, never prefetched" }).focus();
  await page.getByRole("link", { name: "slow, a document load" }).hover();
  await page.getByRole("link", { name: "slow, a document load" }).focus();
  await page.waitForTimeout(300);
  await page.getByRole("link", { name: "worker, on intent" }).hover();
  await expect.poll(() => requests).toContain("/glossary/worker.data");
  await page.waitForLoadState("networkidle");
  expect(requests).not.toContain("/glossary/isolate.data");
  expect(requests.filter((path) => targetOf(path) === "/slow")).toEqual([]);
  expect(requests.filter((path) => path === "/glossary/worker.data")).toHaveLength(1);
  expect(requests).not.toContain("/links.data");
});

test("visible links are prefetched in the order they appear; intent moves a link ahead", async ({ page }) => {
  const hold = await holdRequests(page, isPrefetch);
  await page.goto("/");
  await waitForHydration(page);
  await expect.poll(() => hold.held.length).toBe(5);
  await page.waitForTimeout(300);
  expect(hold.held.length).toBe(5);

  // The navigation row, left to right (Home is this page): About's files (code, CSS, data), then Now's
  // and Items' code. The five start together, so they may reach the network in any order (it happened
  // under load); the queue's order shows in what starts after them.
  expect(hold.held.map(({ path }) => targetOf(path)).sort()).toEqual([
    "/about",
    "/about",
    "/about",
    "/items",
    "/now",
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
  // The queue starts the rest as slots free; on a busy machine the network may rest longer than
  // `networkidle`'s half second between two of them, so wait for every target instead.
  await expect.poll(() => new Set(hold.seen.map(targetOf)).size, { timeout: 10_000 }).toBe(6);
  await page.waitForLoadState("networkidle");
  expect(hold.mostHeld).toBe(5);
  // Every target once, in the order its first file was asked for (the glossary's code imports a chunk it
  // shares with the term pages); no file twice.
  const targets = [...new Set(hold.seen.map(targetOf))];
  expect(targets.slice(0, 3).sort()).toEqual(["/about", "/items", "/now"]);
  expect(targets.slice(3)).toEqual(["/messages", "/glossary", "/glossary/:slug"]);
  expect(new Set(hold.seen).size).toBe(hold.seen.length);
});

/**
 * What the page fetched from the network since `from` resource entries: a file the HTTP cache answered
 * (a prefetched stylesheet) transfers nothing; data the platform's cache answered is no request at all.
 */
function fetchedFromNetwork(page: Page, from: number): Promise<string[]> {
  return page.evaluate(
    (from) =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .slice(from)
        .filter((entry) => entry.transferSize > 0)
        .map((entry) => new URL(entry.name).pathname)
        .filter((path) => !path.includes("/favicon")),
    from,
  );
}

const resourceCount = (page: Page) => page.evaluate(() => performance.getEntriesByType("resource").length);

test("a prefetched static page is shown without a request; a dynamic one makes exactly one (its data)", async ({
  page,
}) => {
  const requests = dataRequests(page);
  // Room for every resource entry of the visit: Chromium keeps 250 by default and drops later ones, and a page
  // of prefetched links under load came close enough that the click's own entries could be the dropped ones.
  await page.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(requests).toContain("/about.data");
  await markDocument(page);

  // Only what the click's own page asked for counts: under load the queue may still be prefetching other
  // links' code and data (five at a time) when the click comes, and that is not the click's.
  const pageFiles = (name: string) => (path: string) =>
    path === `/${name}.data` || path.startsWith(`/assets/${name}-`);
  const before = await resourceCount(page);
  await page.getByRole("link", { name: "About", exact: true }).evaluate((link: HTMLElement) => link.click());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await page.waitForLoadState("networkidle");
  expect((await fetchedFromNetwork(page, before)).filter(pageFiles("about"))).toEqual([]);

  // The dynamic page's data: the requests the page made, which no resource-timing buffer can drop.
  const dataBefore = requests.length;
  await page.getByRole("link", { name: "Now", exact: true }).evaluate((link: HTMLElement) => link.click());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await page.waitForLoadState("networkidle");
  expect(requests.slice(dataBefore).filter((path) => path === "/now.data")).toEqual(["/now.data"]);
  expect(await isSameDocument(page)).toBe(true);
});

/**
 * Watches what a click sets off until the page whose heading is `heading` shows: React Router's pending NavLink
 * (its "loading" render), stylesheet preloads it waits for before it commits, and the batches of DOM changes.
 */
async function watchClick(page: Page, heading: string) {
  await page.evaluate((heading) => {
    const seen = { pending: 0, stylePreloads: 0, batches: 0 };
    (window as unknown as { clickSaw: typeof seen }).clickSaw = seen;
    const observer = new MutationObserver((records) => {
      // A render changes the page's body; links added to <head> (prefetches still running under load,
      // style preloads, counted below) are not one.
      if (records.some((record) => document.body.contains(record.target))) seen.batches++;
      for (const record of records) {
        const node = record.target;
        if (node instanceof HTMLAnchorElement && node.classList.contains("pending")) seen.pending++;
        for (const added of record.addedNodes) {
          if (added instanceof HTMLLinkElement && added.rel === "preload" && added.as === "style") {
            seen.stylePreloads++;
          }
        }
      }
      if (document.querySelector("h1")?.textContent === heading) observer.disconnect();
    });
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["class"],
    });
  }, heading);
  return {
    seen: () =>
      page.evaluate(
        () =>
          (window as unknown as { clickSaw: { pending: number; stylePreloads: number; batches: number } })
            .clickSaw,
      ),
  };
}

/** Clicks the NavLink to About on /links, everything prefetched, and returns what the click set off (watchClick). */
async function clickToPrefetchedAbout(page: Page) {
  await page.goto("/links");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await markDocument(page);
  const click = await watchClick(page, "About");
  await page.getByRole("link", { name: "About page" }).evaluate((link: HTMLElement) => link.click());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
  expect(await isSameDocument(page)).toBe(true);
  return click.seen();
}

test('a click to a prefetched static page waits for no stylesheet (React Router finds it linked) and is one render: its "loading" state never shows', async ({
  page,
}) => {
  const seen = await clickToPrefetchedAbout(page);
  expect(seen.stylePreloads).toBe(0);
  expect(seen.pending).toBe(0);
  expect(seen.batches).toBe(1);
});

test('a click to a dynamic page whose data comes before PAGE_DATA_WAIT_MS is one render: its "loading" state never shows', async ({
  page,
}) => {
  // The page's clock stopped: the wait's 100 ms never run out, however slow the machine, so the data comes
  // first, as it does when it takes less than that.
  await page.clock.install();
  await page.goto("/links");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await page.clock.pauseAt(Date.now() + 1_000);
  await markDocument(page);
  const requests = dataRequests(page);
  const click = await watchClick(page, "Now");
  await page.getByRole("link", { name: "Now page" }).evaluate((link: HTMLElement) => link.click());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  expect(await isSameDocument(page)).toBe(true);
  expect(requests).toEqual(["/now.data"]);
  const seen = await click.seen();
  expect(seen.pending).toBe(0);
  expect(seen.batches).toBe(1);
});

test("a click to a static page whose prefetch is still on its way waits for it: one render, one request", async ({
  page,
}) => {
  // As above, the page's clock stopped: the prefetch, held here, comes only when the test lets it.
  await page.clock.install();
  const held = await holdRequests(page, (path) => path === "/about.data");
  await page.goto("/links");
  await waitForHydration(page);
  await expect.poll(() => held.held.length).toBe(1);
  await page.clock.pauseAt(Date.now() + 1_000);
  await markDocument(page);
  const click = await watchClick(page, "About");
  await page.getByRole("link", { name: "About page" }).evaluate((link: HTMLElement) => link.click());
  await page.waitForTimeout(200);
  await held.release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  expect(await isSameDocument(page)).toBe(true);
  expect(held.seen).toEqual(["/about.data"]);
  const seen = await click.seen();
  expect(seen.pending).toBe(0);
  expect(seen.batches).toBe(1);
});

test('a dynamic page\'s data slower than PAGE_DATA_WAIT_MS: the link shows "pending" until it comes, then the page', async ({
  page,
}) => {
  await page.goto("/links");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await markDocument(page);
  const held = await holdRequests(page, (path) => path === "/now.data");
  const click = await watchClick(page, "Now");
  const link = page.getByRole("link", { name: "Now page" });
  await link.evaluate((element: HTMLElement) => element.click());
  await expect(link).toHaveClass(/pending/);
  await expect.poll(() => held.held.length).toBe(1);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Now");
  await held.release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  expect(await isSameDocument(page)).toBe(true);
  expect(held.seen).toEqual(["/now.data"]);
  expect((await click.seen()).pending).toBeGreaterThan(0);
});

test("a static page prefetched, then visited within 300 s, makes no data request; after 300 s it does", async ({
  page,
}) => {
  await page.clock.install();
  const requests = dataRequests(page);
  await page.goto("/glossary");
  await waitForHydration(page);
  await expect
    .poll(() => requests)
    .toEqual(expect.arrayContaining(["/glossary/edge.data", "/glossary/worker.data"]));
  await page.waitForLoadState("networkidle");
  await markDocument(page);

  requests.length = 0;
  await page.getByRole("link", { name: "edge", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("edge");
  // The header's "Glossary" link prefetches the glossary's data; the term's own came from the cache.
  expect(requests.filter((path) => path !== "/glossary.data")).toEqual([]);

  await page.getByRole("link", { name: "Glossary", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
  // Counted from before the jump: the glossary's links are looked at after its next paint, which may come after
  // the jump (seen in CI), and then that prefetch asks for the stale data again, before the click; else the click
  // does.
  requests.length = 0;
  await page.clock.fastForward("05:01");
  await page.getByRole("link", { name: "worker", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("worker");
  expect(requests).toContain("/glossary/worker.data");
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
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
  await page.goForward();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
  await page.getByRole("link", { name: "Items", exact: true }).click();
  await page.getByRole("link", { name: "Lagos" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");

  expect(requests.filter((path) => path === "/items/los.data")).toHaveLength(3);
  expect(requests.filter((path) => path === "/items.data")).toHaveLength(2);
  expect(await isSameDocument(page)).toBe(true);
});

test("a client navigation's new page is painted before its links are looked at for prefetching", async ({
  page,
}) => {
  // Frames counted by an animation callback each; the frame the new page's heading was committed in, and the
  // frame each link was first watched for visibility in.
  await page.addInitScript(() => {
    const log = { frame: 0, headingFrame: -1, watched: {} as Record<string, number> };
    Object.assign(window, { paintLog: log });
    const tick = () => {
      log.frame++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const observe = IntersectionObserver.prototype.observe;
    IntersectionObserver.prototype.observe = function (this: IntersectionObserver, target: Element) {
      const href = target.getAttribute("href");
      if (href && !(href in log.watched)) log.watched[href] = log.frame;
      observe.call(this, target);
    };
    new MutationObserver(() => {
      if (log.headingFrame < 0 && document.querySelector("h1")?.textContent === "Glossary")
        log.headingFrame = log.frame;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  type PaintLog = { frame: number; headingFrame: number; watched: Record<string, number> };
  const paintLog = () => page.evaluate(() => (window as unknown as { paintLog: PaintLog }).paintLog);
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Glossary" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossary");
  await expect
    .poll(async () => Object.keys((await paintLog()).watched).filter((href) => href.startsWith("/glossary/")))
    .not.toEqual([]);
  const { headingFrame, watched } = await paintLog();
  expect(headingFrame).toBeGreaterThanOrEqual(0);
  for (const [href, frame] of Object.entries(watched)) {
    if (href.startsWith("/glossary/")) expect(frame, href).toBeGreaterThan(headingFrame);
  }
});

test("a link that shows up while a navigation waits is prefetched after the tapped page is shown", async ({
  page,
}) => {
  // In the page's clock: when the tapped page's heading was committed, and when each request started.
  await page.addInitScript(() => {
    const log = { heading: -1, requests: [] as { name: string; start: number }[] };
    Object.assign(window, { tapLog: log });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) log.requests.push({ name: entry.name, start: entry.startTime });
    }).observe({ type: "resource", buffered: true });
    new MutationObserver(() => {
      if (log.heading < 0 && document.querySelector("h1")?.textContent === "Now")
        log.heading = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  type TapLog = { heading: number; requests: { name: string; start: number }[] };
  const tapLog = () => page.evaluate(() => (window as unknown as { tapLog: TapLog }).tapLog);
  // A page no link of /links leads to (its own link there reloads the document): its code is fetched only
  // for the link added below.
  const slow = (log: TapLog) =>
    log.requests.filter(({ name }) => targetOf(new URL(name).pathname) === "/slow");
  await page.goto("/links");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await markDocument(page);
  // The tapped page's data is held: its navigation holds the prefetch queue meanwhile.
  const held = await holdRequests(page, (path) => path === "/now.data");
  await page.getByRole("link", { name: "Now page" }).evaluate((link: HTMLElement) => link.click());
  await expect.poll(() => held.held.length).toBe(1);
  await appendLink(page, "/slow", null);
  await page.waitForTimeout(300);
  expect(slow(await tapLog()), "nothing for the new link while the navigation is under way").toEqual([]);
  await held.release("/now.data");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  expect(await isSameDocument(page)).toBe(true);
  await expect.poll(async () => slow(await tapLog()).length).toBeGreaterThan(0);
  const log = await tapLog();
  expect(log.heading).toBeGreaterThan(0);
  for (const request of slow(log)) expect(request.start, request.name).toBeGreaterThan(log.heading);
});

test("a link below the fold is prefetched when it is scrolled into view, not before", async ({ page }) => {
  const requests = dataRequests(page);
  await page.goto("/about");
  await waitForHydration(page);
  await appendLink(page, "/glossary/isolate", null, { belowFold: true });
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
  expect(requests).not.toContain("/glossary/isolate.data");

  await page.getByRole("link", { name: "appended /glossary/isolate" }).scrollIntoViewIfNeeded();
  await expect.poll(() => requests).toContain("/glossary/isolate.data");
});

for (const [name, connection] of [
  ["Save-Data", { saveData: true, effectiveType: "4g" }],
  ["a 2g connection", { saveData: false, effectiveType: "2g" }],
] as const) {
  test(`on ${name}, no link is prefetched, code or data, visible or hovered`, async ({ page }) => {
    await page.addInitScript((value) => {
      Object.defineProperty(navigator, "connection", { value, configurable: true });
    }, connection);
    const requests: string[] = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    await page.goto("/links");
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "worker, on intent" }).hover();
    await page.waitForTimeout(500);
    expect(requests.filter(isPrefetch)).toEqual([]);
  });
}

test("route CSS is prefetched with a hint Chromium does not warn about when the page never shows it", async ({
  page,
}) => {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  const styles: string[] = [];
  page.on("requestfinished", (request) => {
    if (request.url().endsWith(".css")) styles.push(new URL(request.url()).pathname);
  });
  await page.goto("/now");
  await waitForHydration(page);
  // About's stylesheet is prefetched with its code (the header links to About)...
  await expect.poll(() => styles.some((path) => targetOf(path) === "/about")).toBe(true);
  // ...and never used: Chromium reports an unused preload about 3 s after the load event.
  await page.waitForTimeout(4_000);
  expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);

  // It is still there for the navigation: About shows styled, from the cache.
  await page.getByRole("link", { name: "About", exact: true }).click();
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
});

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
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("isolate");
    await page.waitForLoadState("networkidle");
    expect(hold.seen).toEqual(["/glossary/isolate.data"]);
  });
});
