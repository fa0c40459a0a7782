import { describe, expect, test } from "vitest";
import { sharedPageHeaders } from "../../src/headers";
import {
  cacheTags,
  keyedRequest,
  mayShareAnswer,
  pathTag,
  policyNonce,
  sharedCachePolicy,
  withoutNonce,
} from "../../src/page-cache/policy.ts";

const SHARED = {
  "Cache-Control": "public, s-maxage=60, stale-while-revalidate=600",
  "Cache-Tag": "messages",
};

function policyOf(status: number, headers: Record<string, string>) {
  return sharedCachePolicy(status, new Headers(headers));
}

describe("sharedCachePolicy: what a route's headers allow", () => {
  test("public with s-maxage and stale-while-revalidate, tagged, is shared", () => {
    expect(policyOf(200, SHARED)).toEqual({
      sMaxAge: 60,
      staleWhileRevalidate: 600,
      staleIfError: 600,
      tags: ["messages"],
    });
  });

  test("stale-if-error: the route's own, else as long as its stale-while-revalidate", () => {
    const declared = {
      "Cache-Control": "public, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400",
    };
    expect(policyOf(200, declared)?.staleIfError).toBe(86400);
    const none = { "Cache-Control": "public, s-maxage=60, stale-while-revalidate=600, stale-if-error=0" };
    expect(policyOf(200, none)?.staleIfError).toBe(0);
  });

  test("s-maxage alone is shared, with no stale time and no tags", () => {
    expect(policyOf(200, { "Cache-Control": "s-maxage=5" })).toEqual({
      sMaxAge: 5,
      staleWhileRevalidate: 0,
      staleIfError: 0,
      tags: [],
    });
  });

  test("nothing without s-maxage: the per-request default, max-age alone, s-maxage=0", () => {
    expect(policyOf(200, {})).toBeUndefined();
    expect(policyOf(200, { "Cache-Control": "private, no-store" })).toBeUndefined();
    expect(policyOf(200, { "Cache-Control": "public, max-age=60" })).toBeUndefined();
    expect(policyOf(200, { "Cache-Control": "public, s-maxage=0" })).toBeUndefined();
  });

  test("private, no-store or no-cache next to s-maxage win", () => {
    for (const directive of ["private", "no-store", "no-cache"]) {
      expect(policyOf(200, { "Cache-Control": `${directive}, s-maxage=60` })).toBeUndefined();
    }
  });

  test("a Set-Cookie is never shared", () => {
    expect(policyOf(200, { ...SHARED, "Set-Cookie": "a=1" })).toBeUndefined();
  });

  test("errors and redirects are never shared; a 404 only when the route gave it s-maxage", () => {
    for (const status of [201, 202, 204, 301, 303, 400, 403, 405, 500, 503]) {
      expect(policyOf(status, SHARED)).toBeUndefined();
    }
    expect(policyOf(404, {})).toBeUndefined();
    expect(policyOf(404, SHARED)).toBeDefined();
  });

  test("a Vary on any request header is refused: the key holds none", () => {
    expect(policyOf(200, { ...SHARED, Vary: "Cookie" })).toBeUndefined();
    expect(policyOf(200, { ...SHARED, Vary: "*" })).toBeUndefined();
    expect(policyOf(200, { ...SHARED, Vary: "Accept-Encoding" })).toBeDefined();
  });

  test("tags of another shape are refused", () => {
    expect(cacheTags("a, b ,a")).toEqual(["a", "b"]);
    expect(cacheTags("bad tag")).toBeUndefined();
    expect(policyOf(200, { ...SHARED, "Cache-Tag": "a;b" })).toBeUndefined();
  });
});

describe("mayShareAnswer: which requests may get a shared answer", () => {
  test("GET and HEAD; other methods never", () => {
    expect(mayShareAnswer(new Request("https://a.example/"))).toBe(true);
    expect(mayShareAnswer(new Request("https://a.example/", { method: "HEAD" }))).toBe(true);
    expect(mayShareAnswer(new Request("https://a.example/", { method: "POST" }))).toBe(false);
  });

  test("never with Authorization; a cookie does not prevent it (shared answers never see it)", () => {
    expect(mayShareAnswer(new Request("https://a.example/", { headers: { Authorization: "Basic x" } }))).toBe(
      false,
    );
    expect(mayShareAnswer(new Request("https://a.example/", { headers: { Cookie: "a=1" } }))).toBe(true);
  });

  test("a shared answer is rendered from the URL alone", () => {
    const request = keyedRequest(new URL("https://a.example/p?x=1"));
    expect(request.method).toBe("GET");
    expect(request.url).toBe("https://a.example/p?x=1");
    expect([...request.headers]).toEqual([]);
  });
});

describe("what a shared answer tells the edge and the browser", () => {
  test("the edge keeps it for s-maxage as max-age (s-maxage would switch stale serving off), stale after", () => {
    const policy = { sMaxAge: 60, staleWhileRevalidate: 600, staleIfError: 600, tags: ["messages"] };
    const headers = sharedPageHeaders(policy, "/m");
    expect(headers).toEqual({
      "Cloudflare-CDN-Cache-Control": "max-age=60, stale-while-revalidate=600, stale-if-error=600",
      "Cache-Tag": "messages,path:/m",
      "Cache-Control": "private, no-store",
    });
  });

  test("a page and its data carry one path tag, which a comma cannot split", () => {
    expect(pathTag("/a.data")).toBe(pathTag("/a"));
    expect(pathTag("/_root.data")).toBe("path:/");
    expect(pathTag("/messages/latest/")).toBe("path:/messages/latest");
    expect(pathTag("/a,b")).toBe("path:/a%2Cb");
  });

  test("no stale time: no stale-while-revalidate, and stale-if-error=0 said, so no error serves a stale copy", () => {
    const headers = sharedPageHeaders(
      { sMaxAge: 5, staleWhileRevalidate: 0, staleIfError: 0, tags: [] },
      "/m.data",
    );
    expect(headers["Cloudflare-CDN-Cache-Control"]).toBe("max-age=5, stale-if-error=0");
    expect(headers["Cache-Tag"]).toBe("path:/m");
  });
});

describe("the nonce of a page rendered for sharing", () => {
  test("is read from its policy and taken out of every script", () => {
    const nonce = "AbC+/1==";
    expect(policyNonce(`script-src 'nonce-${nonce}' 'strict-dynamic'`)).toBe(nonce);
    expect(policyNonce("script-src 'sha256-x'")).toBeUndefined();
    const html = `<script nonce="${nonce}">a()</script><link nonce="${nonce}" rel="modulepreload"><p>nonce="other"</p>`;
    expect(withoutNonce(html, nonce)).toBe(
      '<script>a()</script><link rel="modulepreload"><p>nonce="other"</p>',
    );
  });
});
