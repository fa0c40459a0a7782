import { expect, test, waitForHydration } from "edge-platform/testing/playwright";

// The production side of a route's own stylesheet (about.tsx imports about.css): React Router links it
// from the route's manifest entry, and the policy's style-src 'self' allows it. tests/dev covers `npm run dev`.
test("a route's own stylesheet applies on a document load and on a client-side navigation", async ({
  page,
}) => {
  await page.goto("/about");
  await expect(page.locator(".about-platform")).toHaveCSS("border-inline-start-width", "4px");

  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("link", { name: "About", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await expect(page.locator(".about-platform")).toHaveCSS("border-inline-start-color", "rgb(46, 125, 50)");
});
