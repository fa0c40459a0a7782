import { describe, expect, test } from "vitest";
import { createWorkersCache, type WorkersCacheOptions } from "../../src/local-server/workers-cache.ts";

/**
 * The Workers Cache emulation (packages/edge-platform/src/local-server/workers-cache.ts) against a fake Worker: each
 * answer says which origin request it was (`#n`), so a cached body is told apart from a fresh one.
 */

type Answer = { status?: number; headers?: Record<string, string>; body?: string };

function setUp(
  answer: (request: Request, n: number) => Answer | Promise<Answer>,
  options: Partial<WorkersCacheOptions> = {},
) {
  let clock = 1_000_000;
  const seen: Request[] = [];
  const seenProps: unknown[] = [];
  const cache = createWorkersCache({
    fetchOrigin: async (request, props) => {
      seen.push(request);
      seenProps.push(props);
      const { status = 200, headers = {}, body } = await answer(request, seen.length);
      const nullBody = status === 204 || status === 304;
      return new Response(nullBody ? null : (body ?? `#${seen.length}`), { status, headers });
    },
    now: () => clock,
    ...options,
  });
  return {
    cache,
    seen,
    seenProps,
    advance(seconds: number) {
      clock += seconds * 1000;
    },
    async get(path: string, init: RequestInit = {}, props?: unknown) {
      const request = new Request(new URL(path, "http://localhost"), init);
      const response = await cache.fetch(request, props === undefined ? undefined : { props });
      return { status: response.headers.get("cf-cache-status"), body: await response.text(), response };
    },
  };
}

const FOR_60 = { "Cache-Control": "public, max-age=60" };

test("a repeat is a HIT with the same body; the first is a MISS", async () => {
  const { get, seen } = setUp(() => ({ headers: FOR_60 }));
  expect(await get("/a")).toMatchObject({ status: "MISS", body: "#1" });
  expect(await get("/a")).toMatchObject({ status: "HIT", body: "#1" });
  expect(seen).toHaveLength(1);
});

test("50 concurrent requests for one key run the Worker once, its streamed body shared by all", async () => {
  let send: (text: string) => void = () => {};
  let end: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      send = (text) => controller.enqueue(new TextEncoder().encode(text));
      end = () => controller.close();
    },
  });
  let origins = 0;
  const cache = createWorkersCache({
    fetchOrigin: async () => {
      origins++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return new Response(body, { headers: FOR_60 });
    },
  });
  const responses = Promise.all(
    Array.from({ length: 50 }, () => cache.fetch(new Request("http://localhost/streamed"))),
  );
  const answered = await responses;
  // Every client has its headers before the body has ended: the body streams to all of them.
  send("shell ");
  const texts = Promise.all(answered.map((response) => response.text()));
  send("rest");
  end();
  expect(new Set(await texts)).toEqual(new Set(["shell rest"]));
  expect(origins).toBe(1);
  expect(cache.stats().originFetches).toBe(1);
  expect(answered.filter((r) => r.headers.get("cf-cache-status") === "MISS")).toHaveLength(1);
});

test("stale-while-revalidate: the stale copy at once, and exactly one background refresh", async () => {
  const { cache, get, seen, advance } = setUp(() => ({
    headers: { "Cache-Control": "max-age=10, stale-while-revalidate=100" },
  }));
  await get("/swr");
  advance(20);
  const stale = await Promise.all([get("/swr"), get("/swr"), get("/swr")]);
  expect(stale.map(({ status, body }) => [status, body])).toEqual([
    ["UPDATING", "#1"],
    ["UPDATING", "#1"],
    ["UPDATING", "#1"],
  ]);
  await cache.settled();
  expect(seen).toHaveLength(2);
  expect(await get("/swr")).toMatchObject({ status: "HIT", body: "#2" });
});

test("past its lifetime (and any stale window) a copy is EXPIRED and fetched again", async () => {
  const { get, seen, advance } = setUp(() => ({
    headers: { "Cache-Control": "max-age=10, stale-while-revalidate=5" },
  }));
  await get("/old");
  advance(16);
  expect(await get("/old")).toMatchObject({ status: "EXPIRED", body: "#2" });
  expect(await get("/old")).toMatchObject({ status: "HIT", body: "#2" });
  expect(seen).toHaveLength(2);
});

describe("stale-if-error (RFC 5861): an outage of the Worker behind a stale copy", () => {
  /** A copy fresh for 10 s, served stale for 100 s more, through errors as long; the Worker down from `down`. */
  function outage(directives = "max-age=10, stale-while-revalidate=100, stale-if-error=100") {
    let down = false;
    const setup = setUp(() =>
      down ? { status: 500, body: "error page" } : { headers: { "Cache-Control": directives } },
    );
    return { ...setup, fail: (value: boolean) => (down = value) };
  }

  test("the copy is served to every request for its whole window, one refresh tried per interval", async () => {
    const { cache, get, seen, advance, fail } = outage();
    await get("/page");
    fail(true);
    advance(11);
    expect(await get("/page")).toMatchObject({ status: "UPDATING", body: "#1" });
    await cache.settled();
    expect(seen).toHaveLength(2);
    // Until REFRESH_RETRY_MS has passed, every request gets the copy and the Worker is not asked again.
    const during = await Promise.all(Array.from({ length: 20 }, () => get("/page")));
    expect(new Set(during.map(({ status, body }) => `${status} ${body}`))).toEqual(new Set(["STALE #1"]));
    await cache.settled();
    expect(seen).toHaveLength(2);
    // Then one more attempt per interval, the copy served meanwhile, to the end of the window.
    for (let age = 12; age < 110; age += 1) {
      advance(1);
      const answer = await get("/page");
      await cache.settled();
      expect(answer, `at ${age} s`).toMatchObject({
        body: "#1",
        status: expect.stringMatching(/^(UPDATING|STALE)$/),
      });
    }
    const attempts = seen.length - 1;
    expect(attempts).toBeGreaterThanOrEqual(9);
    expect(attempts).toBeLessThanOrEqual(11);
    // Past the window (110 s) the Worker's own answer, the error page, is the one served, and not kept.
    advance(2);
    expect(await get("/page")).toMatchObject({ body: "error page" });
    fail(false);
    expect(await get("/page")).toMatchObject({ status: "MISS" });
  });

  test("a refresh that works again ends it: the new copy at once", async () => {
    const { cache, get, advance, fail } = outage();
    await get("/page");
    fail(true);
    advance(11);
    await get("/page");
    await cache.settled();
    expect(await get("/page")).toMatchObject({ status: "STALE", body: "#1" });
    fail(false);
    advance(10);
    expect(await get("/page")).toMatchObject({ status: "UPDATING", body: "#1" });
    await cache.settled();
    expect(await get("/page")).toMatchObject({ status: "HIT", body: "#3" });
  });

  test("without stale-if-error, a failed refresh drops the copy: the error page next", async () => {
    const { cache, get, advance, fail } = outage("max-age=10, stale-while-revalidate=100");
    await get("/page");
    fail(true);
    advance(11);
    expect(await get("/page")).toMatchObject({ status: "UPDATING", body: "#1" });
    await cache.settled();
    expect(await get("/page")).toMatchObject({ body: "error page" });
  });

  test("past the stale-while-revalidate window, a refresh inside stale-if-error's serves the copy STALE", async () => {
    const { get, seen, advance, fail } = outage("max-age=10, stale-while-revalidate=5, stale-if-error=100");
    await get("/page");
    fail(true);
    advance(20);
    expect(await get("/page")).toMatchObject({ status: "STALE", body: "#1" });
    expect(await get("/page")).toMatchObject({ status: "STALE", body: "#1" });
    expect(seen).toHaveLength(2);
  });
});

test("s-maxage, must-revalidate or proxy-revalidate turn stale serving off", async () => {
  for (const directive of ["s-maxage=10", "max-age=10, must-revalidate", "max-age=10, proxy-revalidate"]) {
    const { get, advance } = setUp(() => ({
      headers: { "Cache-Control": `public, ${directive}, stale-while-revalidate=100` },
    }));
    await get("/p");
    expect((await get("/p")).status, directive).toBe("HIT");
    advance(20);
    expect(await get("/p"), directive).toMatchObject({ status: "EXPIRED", body: "#2" });
  }
});

test("no-cache: stored, but revalidated with the Worker on every request", async () => {
  const { get, seen } = setUp((request) =>
    request.headers.get("If-None-Match") === '"v1"'
      ? { status: 304, headers: { ETag: '"v1"', "Cache-Control": "no-cache" } }
      : { headers: { ETag: '"v1"', "Cache-Control": "no-cache" } },
  );
  expect(await get("/nc")).toMatchObject({ status: "MISS", body: "#1" });
  expect(await get("/nc")).toMatchObject({ status: "REVALIDATED", body: "#1" });
  expect(seen).toHaveLength(2);
  expect(seen[1]?.headers.get("If-None-Match")).toBe('"v1"');
});

describe("purge", () => {
  function tagged() {
    return setUp((request) => {
      const path = new URL(request.url).pathname;
      return { headers: { ...FOR_60, "Cache-Tag": path.startsWith("/blog") ? "Blog, posts" : "home" } };
    });
  }

  test("by tag, case-insensitively: that tag's entries only", async () => {
    const { cache, get } = tagged();
    await get("/blog/1");
    await get("/");
    expect(cache.purge({ tags: ["BLOG"] })).toEqual({ success: true, errors: [] });
    expect((await get("/blog/1")).status).toBe("MISS");
    expect((await get("/")).status).toBe("HIT");
  });

  test("by path prefix: every path that starts with it, whatever the query, a longer name and .data too", async () => {
    // As Workers Cache documents it: the request path starts with the prefix, no segment boundary.
    const { cache, get } = tagged();
    const under = ["/blog", "/blog/1", "/blog?page=2", "/blogroll", "/blog.data"];
    for (const path of [...under, "/", "/about/blog"]) await get(path);
    expect(cache.purge({ pathPrefixes: ["/blog"] }).success).toBe(true);
    for (const path of under) expect((await get(path)).status, path).toBe("MISS");
    expect((await get("/")).status).toBe("HIT");
    expect((await get("/about/blog")).status).toBe("HIT");
  });

  test("tags and path prefixes together purge both", async () => {
    const { cache, get } = tagged();
    for (const path of ["/blog/1", "/about", "/"]) await get(path);
    expect(cache.purge({ tags: ["home"], pathPrefixes: ["/blog/"] }).success).toBe(true);
    expect((await get("/blog/1")).status).toBe("MISS");
    expect((await get("/about")).status).toBe("MISS");
  });

  test("everything", async () => {
    const { cache, get } = tagged();
    for (const path of ["/blog/1", "/"]) await get(path);
    expect(cache.purge({ purgeEverything: true }).success).toBe(true);
    expect(cache.stats().entries).toBe(0);
    expect((await get("/")).status).toBe("MISS");
  });

  test("invalid input fails and purges nothing", async () => {
    const { cache, get } = tagged();
    await get("/blog/1");
    for (const options of [
      { pathPrefixes: ["https://example.com/blog"] },
      { pathPrefixes: ["example.com/blog"] },
      { pathPrefixes: ["/blog?page=2"] },
      { purgeEverything: true, tags: ["blog"] },
      {},
    ]) {
      const result = cache.purge(options);
      expect(result.success, JSON.stringify(options)).toBe(false);
      expect(result.errors[0]?.message).toBeTruthy();
    }
    expect((await get("/blog/1")).status).toBe("HIT");
  });

  test("rate-limited as a token bucket: a burst, then requests per minute", () => {
    const { cache, advance } = setUp(() => ({}), { purgeLimit: { requestsPerMinute: 2, burst: 3 } });
    const purge = () => cache.purge({ tags: ["x"] }).success;
    expect([purge(), purge(), purge(), purge()]).toEqual([true, true, true, false]);
    expect(cache.purge({ tags: ["x"] }).errors[0]?.code).toBe(429);
    advance(30);
    expect([purge(), purge()]).toEqual([true, false]);
  });
});

describe("the props of an entrypoint's call (ctx.props, part of the key)", () => {
  test("one copy per props, whatever the order of their keys; the origin is called with them", async () => {
    const { get, seenProps } = setUp(() => ({ headers: FOR_60 }));
    expect(await get("/page", {}, { locale: "ar", v: 1 })).toMatchObject({ status: "MISS", body: "#1" });
    expect(await get("/page", {}, { locale: "en", v: 1 })).toMatchObject({ status: "MISS", body: "#2" });
    expect(await get("/page", {}, { v: 1, locale: "ar" })).toMatchObject({ status: "HIT", body: "#1" });
    expect(await get("/page")).toMatchObject({ status: "MISS", body: "#3" });
    expect(seenProps).toEqual([{ locale: "ar", v: 1 }, { locale: "en", v: 1 }, undefined]);
  });

  test("a refresh in the background is called with the props its copy was filled with", async () => {
    const { get, seenProps, advance, cache } = setUp(() => ({
      headers: { "Cache-Control": "max-age=10, stale-while-revalidate=60" },
    }));
    await get("/page", {}, { locale: "ar" });
    advance(20);
    expect((await get("/page", {}, { locale: "ar" })).status).toBe("UPDATING");
    await cache.settled();
    expect(seenProps).toEqual([{ locale: "ar" }, { locale: "ar" }]);
  });

  test("every props' copy of a page shares its tags and path: a purge by either reaches them all", async () => {
    const { cache, get } = setUp(() => ({ headers: { ...FOR_60, "Cache-Tag": "page" } }));
    const both = async () =>
      Promise.all([
        get("/page?x=1", {}, { locale: "ar" }).then(({ status }) => status),
        get("/page?x=1", {}, { locale: "en" }).then(({ status }) => status),
      ]);
    await both();
    expect(await both()).toEqual(["HIT", "HIT"]);
    expect(cache.purge({ tags: ["page"] }).success).toBe(true);
    expect(await both()).toEqual(["MISS", "MISS"]);
    expect(cache.purge({ pathPrefixes: ["/page"] }).success).toBe(true);
    expect(await both()).toEqual(["MISS", "MISS"]);
    expect(await both()).toEqual(["HIT", "HIT"]);
  });

  test("concurrent requests collapse per key: one fill per props", async () => {
    let fills = 0;
    const cache = createWorkersCache({
      fetchOrigin: async () => {
        fills++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return new Response("page", { headers: FOR_60 });
      },
    });
    const call = (locale: string) =>
      cache.fetch(new Request("http://localhost/page"), { props: { locale } }).then((r) => r.text());
    await Promise.all([
      ...Array.from({ length: 10 }, () => call("ar")),
      ...Array.from({ length: 10 }, () => call("en")),
    ]);
    expect(fills).toBe(2);
  });
});

describe("headers", () => {
  test("Cache-Tag and Cloudflare-CDN-Cache-Control never reach the client; CDN-Cache-Control does", async () => {
    const { get } = setUp(() => ({
      headers: {
        "Cloudflare-CDN-Cache-Control": "max-age=60",
        "CDN-Cache-Control": "max-age=30",
        "Cache-Tag": "a",
      },
    }));
    for (const expected of ["MISS", "HIT"]) {
      const { response, status } = await get("/h");
      expect(status).toBe(expected);
      expect(response.headers.has("Cache-Tag")).toBe(false);
      expect(response.headers.has("Cloudflare-CDN-Cache-Control")).toBe(false);
      expect(response.headers.get("CDN-Cache-Control")).toBe("max-age=30");
    }
  });

  test("Cloudflare-CDN-Cache-Control wins over Cache-Control, which the client still gets", async () => {
    const { get } = setUp(() => ({
      headers: { "Cloudflare-CDN-Cache-Control": "max-age=60", "Cache-Control": "private, no-store" },
    }));
    await get("/p");
    const { response, status, body } = await get("/p");
    expect([status, body]).toEqual(["HIT", "#1"]);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  test("CDN-Cache-Control wins over Cache-Control", async () => {
    const { get } = setUp(() => ({
      headers: { "CDN-Cache-Control": "no-store", "Cache-Control": "max-age=60" },
    }));
    await get("/p");
    expect((await get("/p")).status).toBe("BYPASS");
  });

  test("private and no-store bypass (the cache's own headers removed all the same)", async () => {
    for (const directive of ["private, max-age=60", "no-store"]) {
      const { get, seen } = setUp(() => ({
        headers: { "Cache-Control": directive, "Cache-Tag": "a", "Cloudflare-CDN-Cache-Control": "no-store" },
      }));
      const first = await get("/p");
      expect(first.status).toBe("BYPASS");
      expect(first.response.headers.has("Cache-Tag")).toBe(false);
      expect(first.response.headers.has("Cloudflare-CDN-Cache-Control")).toBe(false);
      expect(await get("/p")).toMatchObject({ status: "BYPASS", body: "#2" });
      expect(seen).toHaveLength(2);
    }
  });
});

describe("what is stored", () => {
  test("an answer with Set-Cookie is a BYPASS", async () => {
    const { get } = setUp(() => ({ headers: { ...FOR_60, "Set-Cookie": "a=1" } }));
    expect((await get("/c")).status).toBe("BYPASS");
    expect(await get("/c")).toMatchObject({ status: "BYPASS", body: "#2" });
  });

  test("with Authorization, stored only when public, must-revalidate or s-maxage", async () => {
    const auth = { headers: { Authorization: "Bearer x" } };
    const plain = setUp(() => ({ headers: { "Cache-Control": "max-age=60" } }));
    await plain.get("/a", auth);
    expect((await plain.get("/a", auth)).status).toBe("BYPASS");
    for (const directive of ["public, max-age=60", "max-age=60, must-revalidate", "s-maxage=60"]) {
      const { get } = setUp(() => ({ headers: { "Cache-Control": directive } }));
      await get("/a", auth);
      expect((await get("/a", auth)).status, directive).toBe("HIT");
    }
  });

  test("a request Cookie neither bypasses nor keys", async () => {
    const { get } = setUp(() => ({ headers: FOR_60 }));
    await get("/k", { headers: { Cookie: "a=1" } });
    expect(await get("/k", { headers: { Cookie: "b=2" } })).toMatchObject({ status: "HIT", body: "#1" });
  });

  test("Vary: one copy per value, compared verbatim; Vary: * bypasses", async () => {
    const { get } = setUp((request) => ({
      headers: { ...FOR_60, Vary: "Accept-Language" },
      body: request.headers.get("Accept-Language") ?? "none",
    }));
    const lang = (value: string) => ({ headers: { "Accept-Language": value } });
    expect(await get("/v", lang("en"))).toMatchObject({ status: "MISS", body: "en" });
    expect(await get("/v", lang("fr"))).toMatchObject({ status: "MISS", body: "fr" });
    expect(await get("/v", lang("en"))).toMatchObject({ status: "HIT", body: "en" });
    expect(await get("/v", lang("EN"))).toMatchObject({ status: "MISS", body: "EN" });
    const star = setUp(() => ({ headers: { ...FOR_60, Vary: "*" } }));
    await star.get("/v");
    expect((await star.get("/v")).status).toBe("BYPASS");
  });

  test("HEAD is served from the GET's entry without a body; a cold HEAD is fetched as a GET", async () => {
    const { get, seen } = setUp(() => ({ headers: FOR_60 }));
    const cold = await get("/head", { method: "HEAD" });
    expect([cold.status, cold.body]).toEqual(["MISS", ""]);
    expect(seen[0]?.method).toBe("GET");
    expect(await get("/head")).toMatchObject({ status: "HIT", body: "#1" });
    expect(await get("/head", { method: "HEAD" })).toMatchObject({ status: "HIT", body: "" });
    expect(seen).toHaveLength(1);
  });

  test("a POST is DYNAMIC and never stored", async () => {
    const { get, seen } = setUp(() => ({ headers: FOR_60 }));
    expect((await get("/form", { method: "POST", body: "x" })).status).toBe("DYNAMIC");
    expect(seen[0]?.method).toBe("POST");
    expect((await get("/form")).status).toBe("MISS");
  });

  test("206 and 520-526 are never stored", async () => {
    for (const status of [206, 520, 526]) {
      const { get } = setUp(() => ({ status, headers: FOR_60 }));
      await get("/s");
      expect(await get("/s"), String(status)).toMatchObject({ status: "MISS", body: "#2" });
    }
  });

  test("without directives: 200 kept for 2 hours, 404 for 3 minutes, a 500 not at all", async () => {
    for (const [status, seconds] of [
      [200, 7_200],
      [404, 180],
    ] as const) {
      const { get, advance } = setUp(() => ({ status }));
      await get("/x");
      advance(seconds - 1);
      expect((await get("/x")).status, String(status)).toBe("HIT");
      advance(2);
      expect((await get("/x")).status, String(status)).toBe("EXPIRED");
    }
    const { get } = setUp(() => ({ status: 500 }));
    await get("/x");
    expect((await get("/x")).status).toBe("MISS");
  });

  test("the key is the path and query as sent: parameter order and trailing slashes matter; the host does not", async () => {
    const { get } = setUp(() => ({ headers: FOR_60 }));
    await get("/q?a=1&b=2");
    expect((await get("/q?b=2&a=1")).status).toBe("MISS");
    expect((await get("/q?a=1&b=2")).status).toBe("HIT");
    await get("/t");
    expect((await get("/t/")).status).toBe("MISS");
    expect((await get("http://127.0.0.1/t")).status).toBe("HIT");
  });

  test("an answer rendered while a purge ran is served but not kept", async () => {
    let purgeNow = () => {};
    const { cache, get } = setUp(async (_request, n) => {
      if (n === 1) purgeNow();
      return { headers: FOR_60 };
    });
    purgeNow = () => void cache.purge({ purgeEverything: true });
    expect((await get("/race")).status).toBe("MISS");
    expect((await get("/race")).status).toBe("MISS");
    expect((await get("/race")).status).toBe("HIT");
  });

  test("bounded: bodies past the byte bound evict the least recently used", async () => {
    const { get, cache } = setUp(() => ({ headers: FOR_60, body: "x".repeat(100) }), { maxBytes: 250 });
    for (const path of ["/1", "/2"]) await get(path);
    await get("/1");
    await get("/3");
    await cache.settled();
    expect(cache.stats().bytes).toBeLessThanOrEqual(250);
    expect((await get("/1")).status).toBe("HIT");
    expect((await get("/2")).status).toBe("MISS");
  });
});

test("a client's own If-None-Match naming the answer's ETag gets a 304, from a fill and from a hit", async () => {
  const { get, seen } = setUp(() => ({ headers: { ...FOR_60, ETag: '"v1"' } }));
  const fill = await get("/a", { headers: { "If-None-Match": 'W/"v1"' } });
  expect(fill.response.status).toBe(304);
  expect(fill.body).toBe("");
  const hit = await get("/a", { headers: { "If-None-Match": '"v0", "v1"' } });
  expect(hit.response.status).toBe(304);
  expect(hit.response.headers.get("etag")).toBe('"v1"');
  const other = await get("/a", { headers: { "If-None-Match": '"v2"' } });
  expect(other.response.status).toBe(200);
  expect(other.body).toBe("#1");
  // The fill itself was sent without the client's validator: the whole answer was stored.
  expect(seen).toHaveLength(1);
  expect(seen[0]?.headers.has("if-none-match")).toBe(false);
});
