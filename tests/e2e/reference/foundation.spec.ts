import { expect, test } from "edge-platform/testing/playwright";

// The reference product's static pages show when they were rendered: at build time, so the same on every load.
// Navigation, redirects, the 404 page and the application-error page in Chromium are the platform's own
// browser suite's (packages/edge-platform/tests/platform/browser/pages.spec.ts), on its fixture.
test("static pages show the time they were rendered at build time", async ({ page }) => {
  await page.goto("/about");
  const builtAt = await page.locator("time").getAttribute("dateTime");
  expect(builtAt).toBeTruthy();
  await page.reload();
  await expect(page.locator("time")).toHaveAttribute("dateTime", builtAt ?? "");
});
