import { expect, recordCspViolations, test, waitForHydration } from "./fixture-app";

// docs/decisions/018-paint-first.md and 022-inline-critical-css.md, on the fixture: what a first paint and a client
// navigation ask the network for, and the root stylesheet (fixture/app/app.css, as a product has one) inlined.

test("client navigations ask the network for no icon: Chromium's re-fetch is a cache hit", async ({
  page,
}) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const iconRequests = new Map<string, { url: string; fromCache: boolean }>();
  cdp.on("Network.requestWillBeSent", ({ requestId, request }) => {
    if (new URL(request.url).pathname.includes("favicon"))
      iconRequests.set(requestId, { url: request.url, fromCache: false });
  });
  const servedFromCache = (requestId: string) => {
    const request = iconRequests.get(requestId);
    if (request) request.fromCache = true;
  };
  cdp.on("Network.requestServedFromCache", ({ requestId }) => servedFromCache(requestId));
  cdp.on("Network.responseReceived", ({ requestId, response }) => {
    if (response.fromDiskCache || response.fromPrefetchCache) servedFromCache(requestId);
  });
  const finished = new Set<string>();
  cdp.on("Network.loadingFinished", ({ requestId }) => {
    if (iconRequests.has(requestId)) finished.add(requestId);
  });

  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect([...iconRequests.values()].map(({ url }) => new URL(url).pathname)).toEqual([
    expect.stringMatching(/^\/assets\/favicon-[\w-]+\.svg$/),
  ]);
  const firstLoad = iconRequests.size;
  // Chromium asks for the icon late; a navigation while that first answer is still on its way would find
  // nothing in the cache yet.
  await expect.poll(() => [...iconRequests.keys()].every((id) => finished.has(id))).toBe(true);

  const steps: [link: string, path: RegExp][] = [
    ["Now", /\/now$/],
    ["About", /\/about$/],
    ["Home", /\/$/],
    ["Now", /\/now$/],
  ];
  for (const [link, path] of steps) {
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: link, exact: true })
      .click();
    await expect(page).toHaveURL(path);
    await page.waitForLoadState("networkidle");
  }
  // Chromium asks for the icon after the navigation settles: wait for each answer before reading where it
  // came from (the last one can still be on its way after networkidle).
  await expect.poll(() => [...iconRequests.keys()].every((id) => finished.has(id))).toBe(true);
  const afterNavigations = [...iconRequests.values()].slice(firstLoad);
  // Chromium does ask again after each pushState (so the check below is not vacuous)...
  expect(afterNavigations.length).toBeGreaterThan(0);
  // ...and each time its cache answers: the icon is immutable, not revalidated with the server.
  expect(afterNavigations.filter(({ fromCache }) => !fromCache)).toEqual([]);
});

test("/about's linked stylesheet (its route's own) is requested before the first-load modules", async ({
  page,
}) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  await page.goto("/about");
  // The fixture's about.tsx imports about.css: React Router links it, and style-src 'self' allows it.
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
  await page.waitForLoadState("networkidle");
  const firstModule = requested.findIndex((path) => path.endsWith(".js"));
  const stylesheets = requested.filter((path) => path.endsWith(".css"));
  // The root's is inlined (decision 022): /about's own is the one linked.
  expect(stylesheets).toHaveLength(1);
  for (const stylesheet of stylesheets) expect(requested.indexOf(stylesheet)).toBeLessThan(firstModule);
});

// docs/decisions/022-inline-critical-css.md: the root's stylesheet is inlined and allowed by its hash. Each page is
// loaded in one colour scheme and switched to the other (the stylesheets' `@media` rules, no script): a page load
// and its context cost more than the checks, so one load serves both.
const PAGE_KINDS = [
  { path: "/", kind: "pre-rendered", loadedIn: "light" },
  { path: "/now", kind: "rendered per request", loadedIn: "dark" },
  { path: "/slow/cached", kind: "an edge-cached copy", loadedIn: "dark" },
] as const;
const BACKGROUND = { light: "rgb(255, 255, 255)", dark: "rgb(18, 18, 22)" } as const;
const OTHER = { light: "dark", dark: "light" } as const;
for (const { path, kind, loadedIn } of PAGE_KINDS) {
  test(`${path} (${kind}, loaded ${loadedIn}) is styled by its inlined stylesheet in both colour schemes: no request for it, no CSP violation, and a client navigation requests no stylesheet but the new page's own`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: loadedIn });
    const cspViolations = await recordCspViolations(page);
    const stylesheetRequests: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith(".css")) stylesheetRequests.push(pathname);
    });
    if (path === "/slow/cached") {
      // Until Workers Cache (the local server's emulation) answers with its stored copy.
      await expect
        .poll(async () => (await page.request.get(path)).headers()["cf-cache-status"], { timeout: 10_000 })
        .toBe("HIT");
    }
    const response = await page.goto(path);
    if (path === "/slow/cached") expect(response?.headers()["cf-cache-status"]).toBe("HIT");
    await waitForHydration(page);
    // fixture/app/app.css's colours for each scheme, so the rules of the inlined element apply.
    await expect(page.locator("body")).toHaveCSS("background-color", BACKGROUND[loadedIn]);
    await page.emulateMedia({ colorScheme: OTHER[loadedIn] });
    await expect(page.locator("body")).toHaveCSS("background-color", BACKGROUND[OTHER[loadedIn]]);
    // The platform's stylesheet (src/document.css) hides the skip link until it is focused.
    await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");
    await expect(page.locator(".skip-link")).toHaveCSS("width", "1px");
    // …and shows it, readable, when the keyboard reaches it.
    await page.keyboard.press("Tab");
    await expect(page.locator(".skip-link")).toBeFocused();
    expect((await page.locator(".skip-link").boundingBox())?.width).toBeGreaterThan(50);
    // Shown over the page's top corner until focus moves on.
    await page.locator(".skip-link").blur();
    await expect(page.locator("head > style[data-href]")).toHaveCount(2);

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "About", exact: true })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    // The route's own stylesheet applies after a client-side navigation too.
    await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
    // The inlined stylesheets stay after the navigation, in both schemes, and React added no second copy of either.
    await expect(page.locator("body")).toHaveCSS("background-color", BACKGROUND[OTHER[loadedIn]]);
    await page.emulateMedia({ colorScheme: loadedIn });
    await expect(page.locator("body")).toHaveCSS("background-color", BACKGROUND[loadedIn]);
    await expect(page.locator("head > style[data-href]")).toHaveCount(2);
    await page.waitForLoadState("networkidle");

    expect(stylesheetRequests.filter((pathname) => /\/(app|document)-[\w-]+\.css$/.test(pathname))).toEqual(
      [],
    );
    // Only what the page navigated to links itself (its route's own, prefetched then linked), whatever it is.
    const linked = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
        (link) => new URL(link.href).pathname,
      ),
    );
    for (const pathname of new Set(stylesheetRequests)) expect(linked).toContain(pathname);
    expect(await cspViolations()).toEqual([]);
  });
}
