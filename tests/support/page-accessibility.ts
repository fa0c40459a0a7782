import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import axeCore from "axe-core";
import { expect, navigateWithRouter, waitForHydration } from "edge-platform/testing/playwright";

/** WCAG 2.1 A and AA, as axe tags them. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa"];

/**
 * axe on the page as it is, run inside the page itself (`setLegacyMode`): by default @axe-core/playwright 4.14
 * opens a blank page for every run and evaluates axe's 650 KB source there as well, to merge results across
 * cross-origin frames. These pages have no frames.
 *
 * axe's source is evaluated in a document once, here, and AxeBuilder is given a source that does nothing
 * (its `axeSource` option): its `analyze` evaluates the source it holds twice per run (once itself, once to
 * inject it), so two runs on a page (light and dark) evaluated it four times, about 0.4 CPU seconds each.
 */
export async function axe(page: Page): Promise<AxeBuilder> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeCore.source);
  return new AxeBuilder({ page, axeSource: AXE_ALREADY_IN_THE_PAGE }).withTags(AXE_TAGS).setLegacyMode(true);
}
/** A script that does nothing: axe is in the page already (`axe` above). */
const AXE_ALREADY_IN_THE_PAGE = ";";
export const PHONE = { width: 320, height: 640 };
const DESKTOP = { width: 1280, height: 800 };

/** The browser logs the status of an error page's document load. */
export const ERROR_STATUS = /Failed to load resource: the server responded with a status of (400|404|500)/;

export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
}

/**
 * One page's checks, with the page loaded once for all of them (a page load and a browser context cost more here
 * than the checks), on a 320 px viewport: the page's own status and heading first, so a missing page fails
 * rather than checking the 404 page; then reflow at 320 px (WCAG 1.4.10), its title and description, axe in
 * light mode on the phone and in dark mode on a desktop, and the same title after a client navigation from
 * `from` (skipped when `from` is undefined).
 */
export async function checkPage(
  page: Page,
  path: string,
  { status = 200, h1, from }: { status?: number; h1?: string | RegExp; from?: string },
): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status()).toBe(status);
  const heading = page.getByRole("heading", { level: 1 });
  if (h1 === undefined) await expect(heading).toHaveText(/\S/);
  else await expect(heading).toHaveText(h1);

  expect(await scrollsSideways(page), "scrolls sideways at 320 px").toBe(false);

  const head = async () => ({
    title: await page.title(),
    description: await page.locator('meta[name="description"]').getAttribute("content"),
  });
  const loaded = await head();
  expect(loaded.title).not.toBe("");
  expect(loaded.description?.length).toBeGreaterThan(10);

  const light = await (await axe(page)).analyze();
  expect(light.violations, "axe, light mode, 320 px").toEqual([]);
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await (await axe(page)).analyze();
  expect(dark.violations, "axe, dark mode, desktop").toEqual([]);

  if (from === undefined) return;
  // Away to `from` and back, both client navigations: the page is loaded once.
  await waitForHydration(page);
  await navigateWithRouter(page, from);
  await navigateWithRouter(page, path);
  await expect(page).toHaveTitle(loaded.title);
  expect(await head()).toEqual(loaded);
  await expect(page.locator('meta[name="description"]')).toHaveCount(1);
}
