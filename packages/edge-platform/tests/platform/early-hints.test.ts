import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scriptHash } from "../../src/headers.ts";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

/**
 * packages/edge-platform/docs/decisions/018-paint-first.md on the fixture: a page's stylesheets come first in its
 * <head>, ahead of every module, and its `Link` header preloads exactly the stylesheets and modules of its <head>
 * (what Cloudflare turns into 103 Early Hints), on every kind of page: pre-rendered, with a route stylesheet,
 * rendered per request, the 404 page, and an edge-cached copy. And decisions/022-inline-critical-css.md: the
 * root's stylesheet (the fixture's app.css, as a product has one) is inlined ahead of them all, allowed by its hash.
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
  // Workers Cache (the local server's emulation) stores /slow/cached on its first answer.
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(new URL("/slow/cached", app.url));
    await response.arrayBuffer();
    if (response.headers.get("cf-cache-status") === "HIT") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("/slow/cached was never served from the edge cache");
});

afterAll(async () => {
  await app?.close();
});

const PAGES = [
  { path: "/", kind: "pre-rendered" },
  { path: "/about", kind: "pre-rendered, with a route stylesheet" },
  { path: "/now", kind: "rendered per request" },
  { path: "/items/ams", kind: "rendered per request, with a parameter" },
  { path: "/no-such-page", kind: "the 404 page" },
  { path: "/slow/cached", kind: "an edge-cached copy" },
];

/** The `<link>` tags of a page's `<head>`, in order, as [rel, href]. */
function headLinks(html: string): [string, string][] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<link\b[^>]*>/g)].map(([tag]) => [
    tag.match(/\srel="([^"]+)"/)?.[1] ?? "",
    tag.match(/\shref="([^"]+)"/)?.[1] ?? "",
  ]);
}

/** The `<style>` elements of a page's `<head>`, as [data-href, text]. */
function headStyles(html: string): [string, string][] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)].map(([, attributes = "", text = ""]) => [
    attributes.match(/\sdata-href="([^"]+)"/)?.[1] ?? "",
    text,
  ]);
}

describe.each(PAGES)("$path ($kind)", ({ path }) => {
  test("the platform's stylesheet and the root's are inlined as the built files, first in <head>, and allowed by their hashes alone", async () => {
    const response = await fetch(new URL(path, app.url));
    const html = await response.text();
    if (path === "/slow/cached") expect(response.headers.get("cf-cache-status")).toBe("HIT");
    const styles = headStyles(html);
    // The platform's own (src/document.css: the skip link, the route announcer) first, so a product's can restyle it.
    expect(styles.map(([href]) => href)).toEqual([
      expect.stringMatching(/^\/assets\/document-[\w-]{8}\.css$/),
      expect.stringMatching(/^\/assets\/app-[\w-]{8}\.css$/),
    ]);
    for (const [href, text] of styles) {
      // The very bytes the file has, so the build's hash is the hash of what the page serves.
      expect(text).toBe(await (await fetch(new URL(href, app.url))).text());
    }
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head.indexOf("<style")).toBeLessThan(head.indexOf("<link"));
    const styleSources = response.headers.get("content-security-policy")?.match(/style-src ([^;]*)/)?.[1];
    expect(styleSources?.split(" ")).toEqual([
      "'self'",
      ...(await Promise.all(styles.map(async ([, text]) => `'sha256-${await scriptHash(text)}'`))),
    ]);
    for (const [href] of styles) {
      // Inlined, so neither linked nor preloaded.
      expect(headLinks(html).filter(([, at]) => at === href)).toEqual([]);
      expect(response.headers.get("link") ?? "").not.toContain(href);
    }
  });

  test("its stylesheets are fetched ahead of every modulepreload and script in <head>", async () => {
    const response = await fetch(new URL(path, app.url));
    const html = await response.text();
    if (path === "/slow/cached") expect(response.headers.get("cf-cache-status")).toBe("HIT");
    const head = html.slice(0, html.indexOf("</head>"));
    const links = headLinks(html);
    const stylesheets = links.filter(([rel]) => rel === "stylesheet").map(([, href]) => href);
    if (path === "/about")
      expect(stylesheets).toEqual([expect.stringMatching(/^\/assets\/about-[\w-]{8}\.css$/)]);
    const firstModule = links.findIndex(([rel]) => rel === "modulepreload");
    expect(firstModule).toBeGreaterThan(-1);
    // A route's imported stylesheet as a preload, since React Router links it after the modules.
    for (const href of stylesheets)
      expect(
        links.findIndex(([rel, at]) => at === href && (rel === "stylesheet" || rel === "preload")),
      ).toBeLessThan(firstModule);
    // Nothing before them the browser would fetch or run first.
    expect(head.slice(0, head.indexOf("<link"))).not.toMatch(/<script\b/);
  });

  test("its `Link` header preloads exactly the stylesheets and modules of its <head>, stylesheets first", async () => {
    const response = await fetch(new URL(path, app.url));
    const links = headLinks(await response.text());
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
  expect(link).toContain("rel=modulepreload");
  const head = await fetch(new URL("/about", app.url), { method: "HEAD" });
  expect(head.headers.get("link")).toBe(link);
  const revalidated = await fetch(new URL("/about", app.url), {
    headers: { "If-None-Match": full.headers.get("etag") ?? "" },
  });
  expect(revalidated.status).toBe(304);
  expect(revalidated.headers.get("link")).toBe(link);
});

test("responses that are not HTML pages carry no `Link` header: page data and built files", async () => {
  const html = await (await fetch(new URL("/about", app.url))).text();
  const script = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
  if (!script) throw new Error("/about links no built script");
  for (const path of ["/now.data", "/about.data", script, "/robots.txt"]) {
    const response = await fetch(new URL(path, app.url));
    await response.arrayBuffer();
    expect(response.status, path).toBe(200);
    expect(response.headers.get("link"), path).toBeNull();
  }
});
