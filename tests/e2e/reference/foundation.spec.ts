import { expect, test } from "edge-platform/testing/playwright";

// /about shows when it was rendered: at build time, so the same on every load. Navigation, redirects, the 404
// page and the application-error page in Chromium are the platform's own browser suite's
// (packages/edge-platform/tests/platform/browser/pages.spec.ts), on its fixture.
test("/about, pre-rendered, shows the time it was built at on every load", async ({ page }) => {
  const response = await page.goto("/about");
  expect(response?.status()).toBe(200);
  const builtAt = await page.locator("time").getAttribute("dateTime");
  expect(builtAt).toBeTruthy();
  await page.reload();
  await expect(page.locator("time")).toHaveAttribute("dateTime", builtAt ?? "");
});
