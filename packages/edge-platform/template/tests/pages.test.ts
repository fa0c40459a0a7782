import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { STATIC_PAGES } from "../app/product.config.ts";

// The production build (`npm run build` first) in workerd, as `npm start` serves it.
let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild();
});

afterAll(async () => {
  await app?.close();
});

test.each(STATIC_PAGES)("%s is served as built, with the platform's headers", async (path) => {
  const response = await fetch(new URL(path, app.url));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  const html = await response.text();
  expect(html).toContain("<h1>");
  // One <main>, the platform's (the skip link's target): a page renders its content, not a landmark of its own.
  expect(html.match(/<main\b/g)).toHaveLength(1);
});

test("a page that does not exist is the platform's 404 page", async () => {
  const response = await fetch(new URL("/no-such-page", app.url));
  expect(response.status).toBe(404);
});
