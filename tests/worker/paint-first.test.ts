import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../app/platform/local-server/serve-build.ts";
import { TEST_VARS } from "../support/build-under-test.ts";

// docs/decisions/018-paint-first.md: the stylesheets first in <head>, and the same files as `Link` preloads
// (for Cloudflare's 103 Early Hints), on pages rendered per request and on pre-rendered ones.

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ vars: TEST_VARS });
});

afterAll(async () => {
  await app?.close();
});

const PAGES = [
  { path: "/", kind: "pre-rendered", stylesheets: 1 },
  { path: "/about", kind: "pre-rendered, with a route stylesheet", stylesheets: 2 },
  { path: "/now", kind: "rendered per request", stylesheets: 1 },
  { path: "/items/ams", kind: "rendered per request", stylesheets: 1 },
  { path: "/no-such-page", kind: "the 404 page", stylesheets: 1 },
];

/** The `<link>` tags of a page's `<head>`, in order, as [rel, href]. */
function headLinks(html: string): [string, string][] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<link\b[^>]*>/g)].map(([tag]) => [
    tag.match(/\srel="([^"]+)"/)?.[1] ?? "",
    tag.match(/\shref="([^"]+)"/)?.[1] ?? "",
  ]);
}

describe.each(PAGES)("$path ($kind)", ({ path, stylesheets }) => {
  test("its stylesheets are fetched ahead of every modulepreload and script in <head>", async () => {
    const html = await (await fetch(new URL(path, app.url))).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const links = headLinks(html);
    const hrefs = links.filter(([rel]) => rel === "stylesheet").map(([, href]) => href);
    expect(hrefs).toHaveLength(stylesheets);
    const firstModule = links.findIndex(([rel]) => rel === "modulepreload");
    expect(firstModule).toBeGreaterThan(0);
    // The root's stylesheet itself (it has a precedence); a route's imported one as a preload, since
    // React Router links it after the modules (docs/decisions/018-paint-first.md).
    expect(links[0]).toEqual(["stylesheet", hrefs[0]]);
    for (const href of hrefs) {
      expect(
        links.findIndex(([rel, at]) => at === href && (rel === "stylesheet" || rel === "preload")),
      ).toBeLessThan(firstModule);
    }
    // Nothing before them the browser would fetch or run first.
    expect(head.slice(0, head.indexOf("<link"))).not.toMatch(/<script\b/);
  });

  test("its `Link` header preloads exactly the stylesheets and modules of its <head>, stylesheets first", async () => {
    const response = await fetch(new URL(path, app.url));
    const html = await response.text();
    const links = headLinks(html);
    const expected = [
      ...new Set(
        links.filter(([rel]) => rel === "stylesheet").map(([, href]) => `<${href}>; rel=preload; as=style`),
      ),
      ...links.filter(([rel]) => rel === "modulepreload").map(([, href]) => `<${href}>; rel=modulepreload`),
    ];
    const header = response.headers.get("link") ?? "";
    expect(header.split(", ")).toEqual(expected);
    for (const entry of expected) expect(entry).toMatch(/^<\/assets\/[\w.-]+-[\w-]{8}\.(css|js)>/);
    expect(new TextEncoder().encode(header).byteLength).toBeLessThanOrEqual(2_048);
  });
});

test("a HEAD and a 304 of a pre-rendered page carry the same `Link` header", async () => {
  const full = await fetch(new URL("/about", app.url));
  await full.text();
  const link = full.headers.get("link");
  expect(link).toContain("about-");
  const head = await fetch(new URL("/about", app.url), { method: "HEAD" });
  expect(head.headers.get("link")).toBe(link);
  const revalidated = await fetch(new URL("/about", app.url), {
    headers: { "If-None-Match": full.headers.get("etag") ?? "" },
  });
  expect(revalidated.status).toBe(304);
  expect(revalidated.headers.get("link")).toBe(link);
});

test("responses that are not HTML pages carry no `Link` header", async () => {
  for (const path of ["/now.data", "/about.data", "/robots.txt"]) {
    const response = await fetch(new URL(path, app.url));
    await response.arrayBuffer();
    expect(response.headers.get("link"), path).toBeNull();
  }
});
