import { receivedEvents, receivedTransactions } from "../../../src/testing/ingest-stand-in.ts";
import { expect, test, waitForHydration } from "../../../src/testing/playwright";
import { fixtureWithReporting } from "../../support/reporting-fixture.ts";

/**
 * The visitor on the first paint and through hydration (docs/i18n.md), with every page load traced: the
 * fixture declares English and Arabic. A visitor in Cairo whose edge says Cairo, and one whose edge guesses
 * wrong, hydrate `/now` (its time from edge-platform/time) with nothing for React to find different: no page
 * error, no console error (the fixture fails the test on either) and nothing reported.
 */
const reporting = fixtureWithReporting(test, { SENTRY_TRACES_SAMPLE_RATE: "1" });

for (const edgeZone of ["Africa/Cairo", "Asia/Tokyo"]) {
  test(`an Arabic visitor in Cairo, the edge saying ${edgeZone}: right to left, hydrated, nothing reported`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      locale: "ar-EG",
      timezoneId: "Africa/Cairo",
      extraHTTPHeaders: { "x-local-cf-timezone": edgeZone },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    const response = await page.goto(new URL("/now", reporting.app.url).href);
    expect(response?.headers()["content-language"]).toBe("ar");
    await waitForHydration(page);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("data-time-zone", edgeZone);
    const time = page.locator("main time");
    const expected = await time.evaluate(
      (element, zone) =>
        new Intl.DateTimeFormat("ar", { dateStyle: "full", timeStyle: "medium", timeZone: zone }).format(
          new Date(element.getAttribute("datetime") ?? ""),
        ),
      edgeZone,
    );
    await expect(time).toHaveText(expected);
    // The page load's transaction arrives once the SDK has loaded: by then a mismatch would have been sent.
    await expect
      .poll(
        () =>
          (receivedTransactions(reporting.ingest.received) as { transaction?: string }[]).some(
            (transaction) => transaction.transaction === "/now",
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(receivedEvents(reporting.ingest.received)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("an Arabic visitor's pre-rendered page is the Arabic copy: right to left, hydrated, nothing reported", async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: "ar-EG", timezoneId: "Africa/Cairo" });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  const response = await page.goto(new URL("/about", reporting.app.url).href);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-language"]).toBe("ar");
  await waitForHydration(page);
  await expect(page.locator("h1")).toHaveText("About");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator(".skip-link")).toHaveText("تخطَّ إلى المحتوى");
  // A mismatch is React's recoverable error, logged while hydrating (a pre-rendered page was built without
  // a DSN here, so it reports nothing); a client navigation from it stays in Arabic.
  await page.getByRole("link", { name: "Glossary", exact: true }).first().click();
  await expect(page).toHaveURL(/\/glossary$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  expect(problems).toEqual([]);
  await context.close();
});

test("a page that links to a date's page sets its language's date formats up when idle: the tap's render does not", async ({
  browser,
}) => {
  // `/` is pre-rendered, one copy for every zone: its dates are shown in the browser's zone, asked of `Intl`.
  const context = await browser.newContext({ locale: "en-US", timezoneId: "Asia/Tokyo" });
  const page = await context.newPage();
  // Each `Intl.DateTimeFormat` the page's main thread makes, with its arguments (the worker's are not seen).
  await page.addInitScript(() => {
    const made: unknown[][] = [];
    Object.assign(window, { formatsMade: made });
    Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
      construct(target, args, newTarget) {
        made.push(args);
        return Reflect.construct(target, args, newTarget);
      },
      apply(target, self, args) {
        made.push(args);
        return Reflect.apply(target, self, args);
      },
    });
  });
  const formatsMade = () =>
    page.evaluate(() => (window as unknown as { formatsMade: unknown[][] }).formatsMade.map((args) => args));
  const zoneAsks = (made: unknown[][]) => made.filter((args) => args[0] === undefined).length;
  await page.goto(new URL("/", reporting.app.url).href);
  await waitForHydration(page);
  // The link to /now is in view: its code is prefetched, the time module with it, which sets up when idle.
  await expect
    .poll(async () => (await formatsMade()).some(([locale, options]) => locale === "en" && options))
    .toBe(true);
  const ahead = await formatsMade();
  expect(zoneAsks(ahead)).toBe(1);
  expect(ahead.find(([locale]) => locale === "en")?.[1]).toMatchObject({ timeZone: "Asia/Tokyo" });

  await page.getByRole("link", { name: "Now", exact: true }).click();
  await expect(page.locator("h1")).toHaveText("Now");
  await expect(page.locator("main time")).toContainText(/\d/);
  const inTap = (await formatsMade()).slice(ahead.length);
  // Only the page's own format (full date, medium time): the zone is not asked again, the language's data is set.
  expect(zoneAsks(inTap)).toBe(0);
  expect(inTap).toEqual([["en", { dateStyle: "full", timeStyle: "medium", timeZone: "Asia/Tokyo" }]]);
  await context.close();
});
