import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { TEST_VARS } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// packages/edge-platform/docs/decisions/018-paint-first.md: the stylesheets first in <head>, and the same files as `Link` preloads
// (for Cloudflare's 103 Early Hints), on pages rendered per request and on pre-rendered ones.
// packages/edge-platform/docs/decisions/022-inline-critical-css.md: the root's stylesheet inlined, allowed by its hash, on every kind.

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ vars: TEST_VARS });
  // Workers Cache (the local server's emulation) stores /messages/latest on its first answer.
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(new URL("/messages/latest", app.url));
    await response.arrayBuffer();
    if (response.headers.get("cf-cache-status") === "HIT") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("/messages/latest was never served from the edge cache");
});

afterAll(async () => {
  await app?.close();
});

const PAGES = [
  { path: "/", kind: "pre-rendered" },
  { path: "/about", kind: "pre-rendered, with a route stylesheet" },
  { path: "/now", kind: "rendered per request" },
  { path: "/items/ams", kind: "rendered per request" },
  { path: "/no-such-page", kind: "the 404 page" },
  // Fetched twice: the second answer is the edge cache's stored copy (no nonce), checked below.
  { path: "/messages/latest", kind: "an edge-cached copy" },
];

/** The `<style>` elements of a page's `<head>`, as [data-href, text]. */
function headStyles(html: string): [string, string][] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)].map(([, attributes = "", text = ""]) => [
    attributes.match(/\sdata-href="([^"]+)"/)?.[1] ?? "",
    text,
  ]);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(digest).toString("base64");
}

/** The `<link>` tags of a page's `<head>`, in order, as [rel, href]. */
function headLinks(html: string): [string, string][] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<link\b[^>]*>/g)].map(([tag]) => [
    tag.match(/\srel="([^"]+)"/)?.[1] ?? "",
    tag.match(/\shref="([^"]+)"/)?.[1] ?? "",
  ]);
}

describe.each(PAGES)("$path ($kind)", ({ path }) => {
  test("the root's stylesheet is inlined as the built file, first in <head>, and allowed by its hash alone", async () => {
    const response = await fetch(new URL(path, app.url));
    const html = await response.text();
    if (path === "/messages/latest") expect(response.headers.get("cf-cache-status")).toBe("HIT");
    const styles = headStyles(html);
    expect(styles).toHaveLength(1);
    const [[href = "", text = ""] = []] = styles;
    expect(href).toMatch(/^\/assets\/app-[\w-]{8}\.css$/);
    // The very bytes the file has, so the build's hash is the hash of what the page serves.
    expect(text).toBe(await (await fetch(new URL(href, app.url))).text());
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head.indexOf("<style")).toBeLessThan(head.indexOf("<link"));
    const styleSources = response.headers.get("content-security-policy")?.match(/style-src ([^;]*)/)?.[1];
    expect(styleSources?.split(" ")).toEqual(["'self'", `'sha256-${await sha256(text)}'`]);
    // Inlined, so neither linked nor preloaded.
    expect(headLinks(html).filter(([, at]) => at === href)).toEqual([]);
    expect(response.headers.get("link") ?? "").not.toContain(href);
  });

  test("its linked stylesheets are fetched ahead of every modulepreload and script in <head>", async () => {
    const html = await (await fetch(new URL(path, app.url))).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const links = headLinks(html);
    // Whatever stylesheets the page's routes link (/about's own stylesheet is /about's e2e test's to count).
    const hrefs = links.filter(([rel]) => rel === "stylesheet").map(([, href]) => href);
    const firstModule = links.findIndex(([rel]) => rel === "modulepreload");
    expect(firstModule).toBeGreaterThan(0);
    // A route's imported stylesheet as a preload, since React Router links it after the modules
    // (packages/edge-platform/docs/decisions/018-paint-first.md).
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
  expect(link).toContain("rel=modulepreload");
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
