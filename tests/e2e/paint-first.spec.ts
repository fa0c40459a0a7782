import { expect, test, waitForHydration } from "./fixtures";

// docs/decisions/018-paint-first.md: what a first paint and a client navigation ask the network for.

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

  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect([...iconRequests.values()].map(({ url }) => new URL(url).pathname)).toEqual([
    expect.stringMatching(/^\/assets\/favicon-[\w-]+\.svg$/),
  ]);
  const firstLoad = iconRequests.size;

  const steps: [link: string, heading: string][] = [
    ["Now", "Now"],
    ["About", "About"],
    ["Home", "Edge app"],
    ["Now", "Now"],
  ];
  for (const [link, heading] of steps) {
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: link, exact: true })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await page.waitForLoadState("networkidle");
  }
  const afterNavigations = [...iconRequests.values()].slice(firstLoad);
  // Chromium does ask again after each pushState (so the check below is not vacuous)...
  expect(afterNavigations.length).toBeGreaterThan(0);
  // ...and each time its cache answers: the icon is immutable, not revalidated with the server.
  expect(afterNavigations.filter(({ fromCache }) => !fromCache)).toEqual([]);
});

test("the stylesheets are requested before the first-load modules", async ({ page }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  await page.goto("/about");
  await page.waitForLoadState("networkidle");
  const firstModule = requested.findIndex((path) => path.endsWith(".js"));
  const stylesheets = requested.filter((path) => path.endsWith(".css"));
  expect(stylesheets).toHaveLength(2);
  for (const stylesheet of stylesheets) expect(requested.indexOf(stylesheet)).toBeLessThan(firstModule);
});
