import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  cacheHandling,
  cacheKeyUrl,
  cacheStatus,
  cacheTags,
  entryState,
  isPurged,
  keyedRequest,
  normalizedQuery,
  pagePathOf,
  policyNonce,
  purgeTargets,
  sharedCachePolicy,
  withoutNonce,
} from "../../app/platform/page-cache/policy.ts";

const SHARED = {
  "Cache-Control": "public, s-maxage=60, stale-while-revalidate=600",
  "Cache-Tag": "messages",
};

function policyOf(status: number, headers: Record<string, string>) {
  return sharedCachePolicy(status, new Headers(headers));
}

describe("sharedCachePolicy: what a route's headers allow", () => {
  test("public with s-maxage and stale-while-revalidate, tagged, is shared", () => {
    expect(policyOf(200, SHARED)).toEqual({ sMaxAge: 60, staleWhileRevalidate: 600, tags: ["messages"] });
  });

  test("s-maxage alone is shared, with no stale time and no tags", () => {
    expect(policyOf(200, { "Cache-Control": "s-maxage=5" })).toEqual({
      sMaxAge: 5,
      staleWhileRevalidate: 0,
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

describe("cacheHandling: which requests the cache looks at", () => {
  test("GET and HEAD are looked up; other methods are not the cache's", () => {
    expect(cacheHandling(new Request("https://a.example/"))).toBe("lookup");
    expect(cacheHandling(new Request("https://a.example/", { method: "HEAD" }))).toBe("lookup");
    expect(cacheHandling(new Request("https://a.example/", { method: "POST" }))).toBe("none");
  });

  test("Authorization bypasses; a cookie does not (stored copies never see it)", () => {
    expect(cacheHandling(new Request("https://a.example/", { headers: { Authorization: "Basic x" } }))).toBe(
      "bypass",
    );
    expect(cacheHandling(new Request("https://a.example/", { headers: { Cookie: "a=1" } }))).toBe("lookup");
  });
});

describe("the key", () => {
  test("holds the version, host, path and query sorted by name", () => {
    const key = cacheKeyUrl("v1", new URL("https://a.example/messages/latest?b=2&a=1&a=0"));
    expect(key).toBe("https://a.example/__page-cache/v1/messages/latest?a=1&a=0&b=2");
  });

  test("parameters of different names in any order share a key", () => {
    const key = (query: string) => normalizedQuery(new URL(`https://a.example/p${query}`));
    expect(key("?b=2&a=1&c=3")).toBe("?a=1&b=2&c=3");
    expect(key("?c=3&b=2&a=1")).toBe(key("?a=1&b=2&c=3"));
  });

  test("a name's repeated values keep their order: the page reads the first, so another order is another key", () => {
    const key = (query: string) => normalizedQuery(new URL(`https://a.example/p.data${query}`));
    expect(key("?_routes=a&_routes=b")).toBe("?_routes=a&_routes=b");
    expect(key("?_routes=b&_routes=a")).toBe("?_routes=b&_routes=a");
    expect(key("?_routes=a&_routes=b")).not.toBe(key("?_routes=b&_routes=a"));
    // Interleaved with other names, each name's values still keep their order.
    expect(key("?x=2&a=1&x=1&a=0&x=3")).toBe("?a=1&a=0&x=2&x=1&x=3");
    expect(key("?x=2&a=1&x=1")).toBe(key("?a=1&x=2&x=1"));
  });

  test("the key's query reads back as the request's: the same values, each name's in the same order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("a", "b", "_routes", "é", "A"), fc.string({ maxLength: 3 })), {
          maxLength: 8,
        }),
        (pairs) => {
          const url = new URL(`https://a.example/p?${new URLSearchParams(pairs)}`);
          const keyed = new URLSearchParams(normalizedQuery(url));
          for (const name of new Set(pairs.map(([name]) => name))) {
            expect(keyed.getAll(name)).toEqual(url.searchParams.getAll(name));
          }
          expect([...keyed.keys()]).toEqual([...url.searchParams.keys()].sort());
        },
      ),
    );
  });

  test("another deployed version is another key", () => {
    const url = new URL("https://a.example/messages/latest");
    expect(cacheKeyUrl("v1", url)).not.toBe(cacheKeyUrl("v2", url));
  });

  test("no query, no question mark; a different query, a different key", () => {
    expect(cacheKeyUrl("v", new URL("https://a.example/p"))).toBe("https://a.example/__page-cache/v/p");
    expect(cacheKeyUrl("v", new URL("https://a.example/p?"))).toBe("https://a.example/__page-cache/v/p");
    expect(cacheKeyUrl("v", new URL("https://a.example/p?x=1"))).not.toBe(
      cacheKeyUrl("v", new URL("https://a.example/p")),
    );
  });

  test("the stored copy is rendered from the URL alone", () => {
    const request = keyedRequest(new URL("https://a.example/p?x=1"));
    expect(request.method).toBe("GET");
    expect([...request.headers]).toEqual([]);
  });
});

describe("purges", () => {
  test("a page's data belongs to its path", () => {
    expect(pagePathOf("/messages/latest.data")).toBe("/messages/latest");
    expect(pagePathOf("/_root.data")).toBe("/");
    expect(pagePathOf("/messages/latest/")).toBe("/messages/latest");
    expect(purgeTargets("/a.data", ["t"])).toEqual(["path:/a", "tag:t"]);
  });

  test("a copy rendered at or before the latest purge is purged", () => {
    expect(isPurged(1_000, undefined)).toBe(false);
    expect(isPurged(1_000, 999)).toBe(false);
    expect(isPurged(1_000, 1_000)).toBe(true);
    expect(isPurged(1_000, 1_001)).toBe(true);
  });
});

describe("freshness", () => {
  const policy = { sMaxAge: 60, staleWhileRevalidate: 600, tags: [] };

  test("fresh for s-maxage, stale for stale-while-revalidate more, then expired", () => {
    expect(entryState(0, policy, 59_999)).toBe("fresh");
    expect(entryState(0, policy, 60_000)).toBe("stale");
    expect(entryState(0, policy, 659_999)).toBe("stale");
    expect(entryState(0, policy, 660_000)).toBe("expired");
  });
});

describe("Cache-Status (RFC 9211)", () => {
  test("says hit, stale, miss and stored", () => {
    expect(cacheStatus({ kind: "hit", ttl: 3 }, "k")).toBe('edge-page-cache; hit; ttl=3; key="k"');
    expect(cacheStatus({ kind: "stale" })).toBe("edge-page-cache; fwd=stale");
    expect(cacheStatus({ kind: "miss", stored: true })).toBe("edge-page-cache; fwd=miss; stored");
    expect(cacheStatus({ kind: "miss", stored: false, detail: "storing" })).toBe(
      "edge-page-cache; fwd=miss; detail=storing",
    );
    expect(cacheStatus({ kind: "bypass" })).toBe("edge-page-cache; fwd=bypass");
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
