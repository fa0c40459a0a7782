import { test } from "edge-platform/testing/playwright";
import { checkPage, ERROR_STATUS, PHONE } from "../support/page-accessibility.ts";
import { A_STATIC_PAGE_PER_ROUTE } from "../support/product-pages.ts";

/**
 * What a visitor on a small phone, in dark mode, with a screen reader or a keyboard gets on a page of each route the
 * product pre-renders, and on the 404 page: reflow at 320 px (WCAG 1.4.10), a heading, a title and a description, axe
 * WCAG 2.1 A and AA in light and dark mode, and the same title after a client navigation. The reference
 * product's other pages, its forms and its navigation: tests/e2e/reference/accessibility.spec.ts.
 */
test.describe("every page: reflow at 320 px (WCAG 1.4.10), title and description, axe WCAG 2.1 A and AA", () => {
  test.use({ viewport: PHONE });

  for (const path of A_STATIC_PAGE_PER_ROUTE) {
    test(`${path}`, async ({ page }) => {
      // A client navigation to it from another page (from itself, on a one-page product).
      const from = A_STATIC_PAGE_PER_ROUTE.find((other) => other !== path) ?? `${path}?from=elsewhere`;
      await checkPage(page, path, { from });
    });
  }

  test("/no-such-page (the 404 page)", async ({ page, pageProblems }) => {
    pageProblems.expect(ERROR_STATUS);
    await checkPage(page, "/no-such-page", {
      status: 404,
      h1: "404",
      from: A_STATIC_PAGE_PER_ROUTE[0] ?? "/",
    });
  });
});
