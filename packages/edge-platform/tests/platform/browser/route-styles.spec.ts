import { expect, test, waitForHydration } from "./fixture-app";

// The production side of a route's own stylesheet (the fixture's about.tsx imports about.css): React Router
// links it from the route's manifest entry, and the policy's style-src 'self' allows it.
test("a route's own stylesheet applies on a document load and on a client-side navigation", async ({
  page,
}) => {
  await page.goto("/about");
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");

  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("link", { name: "About", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
});
