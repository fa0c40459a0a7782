import type { Page } from "@playwright/test";
import {
  expect,
  holdRequests,
  isSameDocument,
  linksNeverVisible,
  markDocument,
  targetOf,
  test,
  waitForHydration,
} from "./fixture-app";

// The pages' Content-Security-Policy as Chromium enforces it, on the fixture app (the headers themselves are
// tests/platform/security-headers.test.ts's).

type Violation = { directive: string; blocked: string };

/** Collects every Content-Security-Policy violation the page reports, from before its first script. */
async function recordViolations(page: Page): Promise<() => Promise<Violation[]>> {
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = [];
    (window as unknown as { __violations: typeof seen }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI });
    });
  });
  return () => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations);
}

test("with the policy enforced, static and dynamic pages hydrate, navigate and post with no violation", async ({
  page,
}) => {
  const violations = await recordViolations(page);
  // A pre-rendered page: its scripts are allowed by hash.
  const first = await page.goto("/glossary");
  expect(first?.headers()["content-security-policy"]).toContain("'sha256-");
  await waitForHydration(page);
  await markDocument(page);

  // Client navigations load route modules through 'strict-dynamic'.
  await page.getByRole("link", { name: "Now", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await page.getByRole("link", { name: "Messages", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Messages");
  await page.getByLabel("Name", { exact: true }).fill("Ada");
  await page.getByLabel("Message", { exact: true }).fill("under the policy");
  // The fixture's action answers 303 to /messages: the client router follows it.
  const posted = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname === "/messages.data",
  );
  await page.getByRole("button", { name: "Post message" }).click();
  expect((await posted).status()).toBeLessThan(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Messages");
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  expect(await isSameDocument(page)).toBe(true);

  // A page rendered per request: its scripts are allowed by the request's nonce.
  const second = await page.goto("/items/ams");
  expect(second?.headers()["content-security-policy"]).toContain("'nonce-");
  await waitForHydration(page);
  await page.getByRole("link", { name: "About", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");

  expect(await violations()).toEqual([]);
});

/**
 * Serves `path` as the Worker answered it (headers included), with `markup` inserted before `</body>`:
 * an HTML injection, as a stored or reflected XSS would make it. `{nonce}` is replaced by the nonce
 * attribute the page's own scripts carry.
 */
async function injectIntoPage(page: Page, path: string, markup: string): Promise<void> {
  await page.route(path, async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    const nonce = html.match(/<script nonce="([^"]+)"/)?.[1] ?? "";
    await route.fulfill({
      response,
      body: html.replace("</body>", `${markup.replaceAll("{nonce}", nonce)}</body>`),
    });
  });
}

const INJECTED =
  '<script>window.__injected = "inline"</script><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" onload="window.__injected = \'handler\'">';

async function injected(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __injected?: string }).__injected ?? null);
}

test("the policy is enforced: injected markup runs no script on a page rendered per request", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Content Security Policy/);
  const violations = await recordViolations(page);
  // The page's own nonce lets a script run, but not evaluate strings.
  await injectIntoPage(
    page,
    "/now",
    `${INJECTED}<script nonce="{nonce}">try { eval("window.__injected = 'eval'") } catch {}</script>`,
  );
  await page.goto("/now");
  await waitForHydration(page);
  expect(await injected(page)).toBeNull();
  expect((await violations()).map(({ directive }) => directive).sort()).toEqual([
    "script-src",
    "script-src-attr",
    "script-src-elem",
  ]);
});

test("a pre-rendered page refuses injected markup too, even with the nonce the build left in it; and no page can be framed, not even by the app itself (frame-ancestors 'none')", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Content Security Policy|frame-ancestors|Refused to display|Failed to load resource/);
  const violations = await recordViolations(page);
  await injectIntoPage(
    page,
    "/about",
    `${INJECTED}<script nonce="{nonce}">window.__injected = "nonce"</script>`,
  );
  await page.goto("/about");
  await waitForHydration(page);
  expect(await injected(page)).toBeNull();
  expect((await violations()).map(({ directive }) => directive).sort()).toEqual([
    "script-src-attr",
    "script-src-elem",
    "script-src-elem",
  ]);

  // A page of the app as the host: its policy allows same-origin frames (default-src 'self'), so only the
  // framed page's frame-ancestors can refuse. A static file would refuse any frame itself (default-src 'none').
  const target = new URL("/now", page.url()).href;
  const framed = await page.evaluate(async (src) => {
    const frame = document.createElement("iframe");
    frame.src = src;
    // The frame's load event comes once it shows either the page or the error that replaced it.
    const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
    document.body.appendChild(frame);
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    try {
      return frame.contentDocument?.querySelector("h1")?.textContent ?? null;
    } catch {
      return "cross-origin";
    }
  }, target);
  expect(framed).toBeNull();
});

test("a static file opened as a document runs nothing: an inline script in the favicon SVG is refused", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Content Security Policy/);
  // The icon is a built, fingerprinted file (packages/edge-platform/docs/decisions/018-paint-first.md), named in
  // the page's markup: read there, without loading the page in the browser.
  const markup = await (await page.request.get("/")).text();
  const icon = /<link\b[^>]*\brel="icon"[^>]*\bhref="([^"]+)"/.exec(markup)?.[1];
  const response = await page.goto(icon ?? "/missing-icon");
  expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
  // What an SVG carrying script would do: add a script element to its own document.
  const ran = await page.evaluate(async () => {
    const script = document.createElementNS("http://www.w3.org/2000/svg", "script");
    script.textContent = "document.documentElement.setAttribute('data-ran', 'yes')";
    document.documentElement.appendChild(script);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return document.documentElement.getAttribute("data-ran");
  });
  expect(ran).toBeNull();
});

test.describe("the browser's zone, asked by a worker when the page is idle or at a tap (src/visitor/zone-worker.ts)", () => {
  // The edge guesses Paris; the browser shows times in Tokyo: the page remembers Tokyo in the `tz` cookie.
  test.use({ timezoneId: "Asia/Tokyo", extraHTTPHeaders: { "x-local-cf-timezone": "Europe/Paris" } });

  const zoneCookie = async (page: Page) =>
    (await page.context().cookies()).find((cookie) => cookie.name === "tz")?.value;

  test("a page that shows a date starts one worker, allowed by its policy, and its answer goes to the tz cookie", async ({
    page,
  }) => {
    const violations = await recordViolations(page);
    // The page's own thread would say Lima: a cookie that says Tokyo came from the worker.
    await page.addInitScript(() => {
      const { resolvedOptions } = Intl.DateTimeFormat.prototype;
      Intl.DateTimeFormat.prototype.resolvedOptions = function (this: Intl.DateTimeFormat) {
        return { ...resolvedOptions.call(this), timeZone: "America/Lima" };
      };
    });
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    await page.goto("/now");
    await waitForHydration(page);
    await expect.poll(() => zoneCookie(page)).toBe(encodeURIComponent("Asia/Tokyo"));
    // One, for the time module's set-up and the cookie both; from a Blob, so no request.
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatch(/^blob:/);
    expect(await violations()).toEqual([]);
  });

  test("a tap on a link to a page that shows a date, before its prefetch: the set-up starts at the tap, during the round trip", async ({
    page,
  }) => {
    // Nothing prefetched: `/` shows no date, and its links are never seen, so the dates entry is not loaded.
    await linksNeverVisible(page);
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    await page.goto("/");
    await waitForHydration(page);
    await markDocument(page);
    // The tapped pages' code and data are held: no module of theirs runs until the test lets it.
    const held = await holdRequests(
      page,
      (path) => targetOf(path) !== undefined || /\/time-[^/]+\.js$/.test(path),
    );
    // A page without a date: no set-up.
    await page
      .getByRole("link", { name: "About", exact: true })
      .evaluate((link: HTMLElement) => link.click());
    await expect.poll(() => held.seen.some((path) => targetOf(path) === "/about")).toBe(true);
    await page.waitForTimeout(300);
    expect(workers).toEqual([]);
    // A page that shows one (/now, edge-platform/time): the worker starts while its code and data are held.
    await page.getByRole("link", { name: "Now", exact: true }).evaluate((link: HTMLElement) => link.click());
    await expect.poll(() => workers.length).toBe(1);
    expect(held.seen.filter((path) => targetOf(path) === "/now").length).toBeGreaterThan(0);
    held.letThrough(() => true);
    while (held.held.length > 0) await held.release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
    expect(await isSameDocument(page)).toBe(true);
    await page.waitForTimeout(300);
    expect(workers, "one worker: the dates entry, once loaded, takes its answer").toHaveLength(1);
  });

  test("without workers, the main thread asks: the cookie is set all the same", async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(window, "Worker", { value: undefined });
    });
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    await page.goto("/now");
    await waitForHydration(page);
    await expect.poll(() => zoneCookie(page)).toBe(encodeURIComponent("Asia/Tokyo"));
    expect(workers).toEqual([]);
  });
});
