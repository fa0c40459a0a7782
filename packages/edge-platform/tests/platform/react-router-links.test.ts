import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

/**
 * The Worker's build renders the fixture's React Router links through the platform's links module
 * (packages/edge-platform/docs/decisions/020-react-router-prefetch-prop.md): each `prefetch` prop (and `reloadDocument`) is the
 * anchor's `data-prefetch`, the markup the browser build hydrates (the same module, so no mismatch).
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS });
});

afterAll(async () => {
  await app?.close();
});

/** Each anchor of the page's HTML, by its href: its data-prefetch, null when absent. */
function anchors(html: string): Map<string, string | null> {
  const found = new Map<string, string | null>();
  for (const [tag] of html.matchAll(/<a\b[^>]*>/g)) {
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (href !== undefined) found.set(href, /\bdata-prefetch="([^"]*)"/.exec(tag)?.[1] ?? null);
  }
  return found;
}

describe("React Router's prefetch prop on the server's markup", () => {
  test("each mode is the anchor's data-prefetch; no prop and viewport are the default", async () => {
    const response = await fetch(new URL("/links", app.url));
    expect(response.status).toBe(200);
    const links = anchors(await response.text());
    expect(Object.fromEntries(links)).toMatchObject({
      "/about": null,
      "/items/ams": null,
      "/items/lhr": null,
      "/glossary/worker": "intent",
      "/glossary/edge": "render",
      "/glossary/isolate": "none",
      "/slow": "none",
    });
  });
});
