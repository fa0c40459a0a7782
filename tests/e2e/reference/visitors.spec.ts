import { expect, test, waitForHydration } from "edge-platform/testing/playwright";
import { A_STATIC_PAGE_PER_ROUTE } from "../../support/product-pages.ts";

/**
 * Visitors from four places, as their browsers are set (language and time zone) and as the edge sees them
 * (`x-local-cf-timezone`, which only the local server honours): each gets their language, writing direction
 * and time zone on the first paint, with nothing for React to find different when it hydrates (any console
 * error fails the test, React's hydration errors among them), and again on a return visit, when the browser
 * has said its zone itself (packages/edge-platform/docs/i18n.md).
 */
const VISITORS = [
  {
    place: "Tokyo",
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
    lang: "ja",
    dir: "ltr",
    heading: "現在",
    back: "戻る",
    navigation: "メイン",
  },
  {
    place: "Los Angeles",
    locale: "en-US",
    timezoneId: "America/Los_Angeles",
    lang: "en",
    dir: "ltr",
    heading: "Now",
    back: "Back",
    navigation: "Main",
  },
  {
    place: "Kolkata",
    locale: "hi-IN",
    timezoneId: "Asia/Kolkata",
    lang: "hi",
    dir: "ltr",
    heading: "अभी",
    back: "पीछे",
    navigation: "मुख्य",
  },
  {
    place: "Cairo",
    locale: "ar-EG",
    timezoneId: "Africa/Cairo",
    lang: "ar",
    dir: "rtl",
    heading: "الآن",
    back: "رجوع",
    navigation: "القائمة الرئيسية",
  },
] as const;

for (const visitor of VISITORS) {
  test(`a visitor from ${visitor.place} reads /now in ${visitor.lang}, in their zone, first visit and return`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({
      locale: visitor.locale,
      timezoneId: visitor.timezoneId,
      extraHTTPHeaders: { "x-local-cf-timezone": visitor.timezoneId },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });

    for (const visit of ["first", "return"]) {
      const response = await page.goto("/now");
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-language"]).toBe(visitor.lang);
      await waitForHydration(page);
      const html = page.locator("html");
      await expect(html).toHaveAttribute("lang", visitor.lang);
      await expect(html).toHaveAttribute("dir", visitor.dir);
      await expect(page.getByRole("heading", { level: 1, name: visitor.heading })).toBeVisible();
      // The page's own controls speak the visitor's language too.
      await expect(page.getByRole("button", { name: visitor.back, exact: true })).toBeVisible();
      // The edge's time, as the visitor's own browser writes that instant in their language and zone.
      const time = page.locator("main time").first();
      const instant = await time.getAttribute("datetime");
      const expected = await page.evaluate(
        ({ instant, lang }) =>
          new Intl.DateTimeFormat(lang, { dateStyle: "full", timeStyle: "medium" }).format(
            new Date(instant ?? ""),
          ),
        { instant, lang: visitor.lang },
      );
      await expect(time, `${visit} visit`).toHaveText(expected);
      expect(await time.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    }
    // The edge was right, so the browser had nothing to correct.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("tz");
    if (visitor.dir === "rtl") {
      // Mirrored: the heading's text ends at the right edge of its box and starts well inside it.
      const edges = await page.getByRole("heading", { level: 1 }).evaluate((heading) => {
        const range = document.createRange();
        range.selectNodeContents(heading);
        const text = range.getBoundingClientRect();
        const box = heading.getBoundingClientRect();
        return { right: box.right - text.right, left: text.left - box.left };
      });
      expect(edges.right).toBeLessThan(2);
      expect(edges.left).toBeGreaterThan(100);
      await testInfo.attach(`now-${visitor.lang}.png`, {
        body: await page.screenshot(),
        contentType: "image/png",
      });
    }
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("the pre-rendered pages come in each visitor's language, built once per language, and hydrate cleanly", async ({
  browser,
}) => {
  for (const visitor of VISITORS) {
    const context = await browser.newContext({ locale: visitor.locale, timezoneId: visitor.timezoneId });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    // Two of the product's pre-rendered pages, whichever it has.
    for (const path of A_STATIC_PAGE_PER_ROUTE.slice(0, 2)) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-language"], `${path} for ${visitor.place}`).toBe(visitor.lang);
      await waitForHydration(page);
      await expect(page.locator("html")).toHaveAttribute("dir", visitor.dir);
      const navigation = page.getByRole("navigation", { name: visitor.navigation });
      await expect(navigation.getByRole("link").first()).toBeVisible();
    }
    expect(problems, visitor.place).toEqual([]);
    await context.close();
  }
});

test("where the edge guesses the zone wrong, the first paint uses its guess and the next page the browser's", async ({
  browser,
}) => {
  const context = await browser.newContext({
    locale: "en-US",
    timezoneId: "Asia/Tokyo",
    // A visitor from Tokyo whose connection leaves through Los Angeles.
    extraHTTPHeaders: { "x-local-cf-timezone": "America/Los_Angeles" },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto("/now");
  await waitForHydration(page);
  // Hydrated in the zone the server rendered with: no mismatch.
  await expect(page.locator("html")).toHaveAttribute("data-time-zone", "America/Los_Angeles");
  await expect
    .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "tz")?.value)
    .toBe("Asia%2FTokyo");
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator("html")).toHaveAttribute("data-time-zone", "Asia/Tokyo");
  expect(problems).toEqual([]);
  await context.close();
});

test("the 404 page is in the visitor's language, the contract's error sentences stay English", async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: "ja-JP", timezoneId: "Asia/Tokyo" });
  const page = await context.newPage();
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  expect(response?.headers()["content-language"]).toBe("ja");
  await waitForHydration(page);
  await expect(page.getByText("このページは見つかりませんでした。")).toBeVisible();
  await expect(page).toHaveTitle("404: ページが見つかりません");
  await expect(page.getByRole("link", { name: "本文へスキップ" })).toBeAttached();
  await context.close();
});

test("a shared page shows each visitor the copy's instant in their own zone once hydrated", async ({
  browser,
}) => {
  for (const timezoneId of ["Asia/Tokyo", "America/Los_Angeles"]) {
    const context = await browser.newContext({ locale: "en-US", timezoneId });
    const page = await context.newPage();
    await page.goto("/messages/latest");
    await waitForHydration(page);
    const asOf = page.locator("main p time").first();
    const instant = await asOf.getAttribute("datetime");
    const expected = await page.evaluate(
      (instant) =>
        new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(
          new Date(instant ?? ""),
        ),
      instant,
    );
    await expect(asOf).toHaveText(expected);
    await context.close();
  }
});
