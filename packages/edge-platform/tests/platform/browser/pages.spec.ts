import { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE } from "../../../src/errors/error-messages";
import {
  expect,
  isSameDocument,
  markDocument,
  navigateWithRouter,
  test,
  waitForHydration,
} from "./fixture-app";

// Client-side navigation, redirects, the 404 page and the application-error page in Chromium, on the fixture
// app (their HTTP side is tests/platform/pages.test.ts's and application-error.test.ts's).

const DIGEST_LINE = /^Digest: [0-9a-z]{13}$/;
const FAILED_RESOURCE = /Failed to load resource: the server responded with a status of (404|500)/;

test("navigating between pages happens client-side, without a document load", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await markDocument(page);

  await page.getByRole("link", { name: "Now", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await page.getByRole("link", { name: "Items", exact: true }).click();
  await page.getByRole("link", { name: "Tokyo" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  await page.getByRole("link", { name: "About", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");

  expect(new URL(page.url()).pathname).toBe("/about");
  expect(await isSameDocument(page)).toBe(true);
});

test("a thrown redirect is followed on a client-side navigation, never shown as an error; an unknown URL reached so shows the 404 page", async ({
  page,
}) => {
  await page.goto("/items");
  await waitForHydration(page);
  await markDocument(page);
  await navigateWithRouter(page, "/items/NRT");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  expect(new URL(page.url()).pathname).toBe("/items/nrt");
  expect(await isSameDocument(page)).toBe(true);

  await navigateWithRouter(page, "/no/such/page");
  await expect(page.getByText("This page could not be found.")).toBeVisible();
  expect(await isSameDocument(page)).toBe(true);
});

test("an unknown item shows the 404 page with status 404", async ({ page, pageProblems }) => {
  pageProblems.expect(FAILED_RESOURCE);
  const response = await page.goto("/items/atlantis");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
  await expect(page.getByText("This page could not be found.")).toBeVisible();
  await expect(page).toHaveTitle("404: Page not found");
});

test("when a loader or a server render throws, the page shows the server application error with a digest and no details, and a client-side navigation to it shows the same digest", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(FAILED_RESOURCE);
  // A component that throws while rendering on the server, then a loader that throws: the second is reached again
  // below by a client-side navigation.
  let documentDigest: string | null = null;
  for (const path of ["/failures/render", "/failures/loader"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_MESSAGE);
    await expect(page.locator(".digest")).toHaveText(DIGEST_LINE);
    documentDigest = await page.locator(".digest").textContent();
    await waitForHydration(page);
    // Still the same page once hydrated: the browser agrees with the server.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_MESSAGE);
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain("Reference failure");
    expect(html).not.toMatch(/\bat [\w$.]+ \(/);
  }

  await page.goto("/failures/client");
  await waitForHydration(page);
  await markDocument(page);
  await page.getByRole("link", { name: "a loader throws" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_MESSAGE);
  await expect(page.locator(".digest")).toHaveText(documentDigest ?? "");
  expect(await isSameDocument(page)).toBe(true);
});

test("an exception in the browser shows the client application error, without a digest", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Reference failure: this component throws in the browser/);
  await page.goto("/failures/client");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Throw in the browser" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_MESSAGE);
  await expect(page.getByText(/Digest:/)).toHaveCount(0);
  await expect(page.locator("pre")).toHaveCount(0);
});
