import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { TEST_VARS } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// packages/edge-platform/docs/decisions/022-inline-critical-css.md: the product's root stylesheet inlined, allowed by its hash,
// on every kind of page. (Decision 018's order of <head> and its `Link` header for Early Hints are the platform's
// tests, on its fixture: packages/edge-platform/tests/platform/early-hints.test.ts.)

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
});
