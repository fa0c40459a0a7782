import type { DataRouter } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { PREFETCH_STALE_MS_DYNAMIC, PREFETCH_STALE_MS_STATIC } from "../../src/constants";
import {
  NavigationData,
  PageDataCache,
  pageDataFetch,
  pageDataKey,
  prefetchPageData,
  prefetchStaleTime,
  toResponse,
} from "../../src/navigation/page-data";
import { PrefetchQueue } from "../../src/navigation/prefetch-queue";

describe("stale times (packages/edge-platform/docs/contract.md C5)", () => {
  test("the constants are those of the contract", () => {
    expect(PREFETCH_STALE_MS_STATIC).toBe(300_000);
    expect(PREFETCH_STALE_MS_DYNAMIC).toBe(0);
  });

  test("pages of a static route keep prefetched data 300 s, every other page 0 s", () => {
    const staticRoutes = new Set(["routes/about", "routes/glossary-term"]);
    expect(prefetchStaleTime("routes/about", staticRoutes)).toBe(300_000);
    expect(prefetchStaleTime("routes/glossary-term", staticRoutes)).toBe(300_000);
    expect(prefetchStaleTime("routes/now", staticRoutes)).toBe(0);
    expect(prefetchStaleTime(undefined, staticRoutes)).toBe(0);
  });

  test("outside a build nothing is static", () => {
    expect(prefetchStaleTime("routes/about")).toBe(0);
  });
});

describe("PageDataCache", () => {
  const stored = {
    status: 200,
    headers: [["x-a", "1"]] as [string, string][],
    body: new TextEncoder().encode("[1]").buffer,
  };

  test("serves an entry until its stale time has passed, then drops it", () => {
    let now = 1_000;
    const cache = new PageDataCache(() => now);
    cache.set("/about.data", stored, 300_000);
    now += 299_999;
    expect(cache.getFresh("/about.data")).toBe(stored);
    now += 1;
    expect(cache.getFresh("/about.data")).toBeUndefined();
    now -= 1;
    expect(cache.getFresh("/about.data")).toBeUndefined();
  });

  test("never stores data whose stale time is 0", () => {
    const cache = new PageDataCache(() => 0);
    cache.set("/now.data", stored, 0);
    expect(cache.isFresh("/now.data")).toBe(false);
  });

  test("answers the same bytes each time it is read", async () => {
    const first = toResponse(stored);
    const second = toResponse(stored);
    expect(await first.text()).toBe("[1]");
    expect(await second.text()).toBe("[1]");
    expect(second.headers.get("x-a")).toBe("1");
  });
});

describe("the page-data cache keys by what a request depends on: path and query", () => {
  const ORIGIN = "https://app.test";

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test("the key is the path and the whole query, `_routes` included", () => {
    const key = (path: string) => pageDataKey(new URL(path, ORIGIN));
    expect(key("/items.data?page=1")).toBe("/items.data?page=1");
    expect(key("/items.data?page=1")).not.toBe(key("/items.data?page=2"));
    expect(key("/items.data")).not.toBe(key("/items.data?_routes=root"));
    expect(key("/items.data?_routes=root")).not.toBe(key("/items.data?_routes=routes%2Fitems"));
  });

  test("two queries of one path are two entries, each answered with its own data", async () => {
    vi.stubGlobal("window", { location: new URL(`${ORIGIN}/`) });
    const network: string[] = [];
    const nativeFetch = (async (input: RequestInfo | URL) => {
      const url = new URL(String(input), ORIGIN);
      network.push(url.pathname + url.search);
      return new Response(`["${url.search}"]`, { status: 200 });
    }) as typeof fetch;
    const cache = new PageDataCache();
    for (const dataUrl of ["/glossary.data?letter=a", "/glossary.data?letter=b"]) {
      const key = pageDataKey(new URL(dataUrl, ORIGIN));
      await prefetchPageData(nativeFetch, cache, { dataUrl, key, staleTime: PREFETCH_STALE_MS_STATIC });
    }
    expect(network).toEqual(["/glossary.data?letter=a", "/glossary.data?letter=b"]);

    // React Router's request for each, through the page's fetch: no navigation in progress (a refresh).
    const router = { state: { navigation: { state: "idle" } } } as unknown as DataRouter;
    const fetchPageData = pageDataFetch({
      router,
      queue: new PrefetchQueue(5),
      cache,
      staleTimeOf: () => 0,
      routeOf: (page) => page,
    });
    const answer = async (path: string) => (await fetchPageData(nativeFetch, new URL(path, ORIGIN))).text();
    expect(await answer("/glossary.data?letter=b")).toBe('["?letter=b"]');
    expect(await answer("/glossary.data?letter=a")).toBe('["?letter=a"]');
    expect(network).toHaveLength(2);
    // The path alone, or another query, is another request.
    expect(await answer("/glossary.data")).toBe('[""]');
    expect(await answer("/glossary.data?letter=c")).toBe('["?letter=c"]');
    expect(network.slice(2)).toEqual(["/glossary.data", "/glossary.data?letter=c"]);
  });
});

describe("NavigationData: page data a navigation asked for beside its code", () => {
  test("is taken once, by the request for its key", async () => {
    const ahead = new NavigationData();
    let requests = 0;
    ahead.start("/now.data", async () => {
      requests++;
      return new Response("[1]");
    });
    expect(ahead.take("/about.data")).toBeUndefined();
    expect(await (await ahead.take("/now.data"))?.text()).toBe("[1]");
    expect(ahead.take("/now.data")).toBeUndefined();
    expect(requests).toBe(1);
  });

  test("dropped before it is taken, its body is cancelled and nothing is left to take", async () => {
    const ahead = new NavigationData();
    let cancelled = false;
    const body = new ReadableStream({
      cancel() {
        cancelled = true;
      },
    });
    const { drop } = ahead.start("/now.data", async () => new Response(body));
    drop();
    await vi.waitFor(() => expect(cancelled).toBe(true));
    expect(ahead.take("/now.data")).toBeUndefined();
  });

  test("dropped after it was taken, the taker's body is left alone; a failed request rejects only its taker", async () => {
    const ahead = new NavigationData();
    const { drop } = ahead.start("/now.data", async () => new Response("[2]"));
    const taken = await ahead.take("/now.data");
    drop();
    expect(await taken?.text()).toBe("[2]");
    ahead.start("/down.data", () => Promise.reject(new TypeError("Failed to fetch")));
    await expect(ahead.take("/down.data")).rejects.toThrow("Failed to fetch");
  });
});

describe("NavigationData: when the data a navigation waits for is here", () => {
  /** A body whose chunks the test sends one at a time. */
  function streamed() {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    return {
      body,
      send: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
      end: () => controller.close(),
    };
  }
  const settled = (promise: Promise<void>) =>
    Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20))]);

  test("received settles once the whole body is here, not with the headers; the taker still reads all of it", async () => {
    const ahead = new NavigationData();
    const { body, send, end } = streamed();
    const { received } = ahead.start("/now.data", async () => new Response(body, { status: 200 }));
    send("[1,");
    expect(await settled(received)).toBe(false);
    send("2]");
    expect(await settled(received)).toBe(false);
    end();
    expect(await settled(received)).toBe(true);
    expect(await (await ahead.take("/now.data"))?.text()).toBe("[1,2]");
  });

  test("the taker streams from the start before the rest has come (a deferred value is not held up)", async () => {
    const ahead = new NavigationData();
    const { body, send, end } = streamed();
    ahead.start("/now.data", async () => new Response(body));
    send("first");
    const reader = (await ahead.take("/now.data"))?.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe("first");
    send("second");
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe("second");
    end();
    expect((await reader?.read())?.done).toBe(true);
  });

  test("dropped once taken, the waiting copy stops and the taker alone gets the rest; cancelled, the request ends", async () => {
    const ahead = new NavigationData();
    let cancelled = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel() {
        cancelled = true;
      },
    });
    const { drop, received } = ahead.start("/now.data", async () => new Response(body));
    const reader = (await ahead.take("/now.data"))?.body?.getReader();
    drop();
    await expect(received).resolves.toBeUndefined();
    controller.enqueue(new TextEncoder().encode("rest"));
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe("rest");
    expect(cancelled).toBe(false);
    await reader?.cancel();
    await vi.waitFor(() => expect(cancelled).toBe(true));
  });

  test("received settles when the request fails, and when the body breaks off", async () => {
    const ahead = new NavigationData();
    const failed = ahead.start("/down.data", () => Promise.reject(new TypeError("Failed to fetch")));
    expect(await settled(failed.received)).toBe(true);
    let breakOff!: () => void;
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("[1,"));
        breakOff = () => controller.error(new TypeError("network error"));
      },
    });
    const cut = ahead.start("/cut.data", async () => new Response(broken));
    expect(await settled(cut.received)).toBe(false);
    breakOff();
    expect(await settled(cut.received)).toBe(true);
  });

  test("dropped before the body has come, both copies are cancelled", async () => {
    const ahead = new NavigationData();
    let cancelled = false;
    const body = new ReadableStream({
      cancel() {
        cancelled = true;
      },
    });
    const { drop, received } = ahead.start("/now.data", async () => new Response(body));
    await Promise.resolve();
    drop();
    await vi.waitFor(() => expect(cancelled).toBe(true));
    expect(await settled(received)).toBe(true);
  });
});

describe("a navigation's page data asked for ahead (navigation-gate.ts)", () => {
  const ORIGIN = "https://app.test";
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  const loadingNow = {
    state: { navigation: { state: "loading", location: { pathname: "/now", search: "", hash: "" } } },
  } as unknown as DataRouter;
  /** The page's `fetch` while a navigation to /now loads, with its data asked for ahead. */
  const fetchWhileLoadingNow = (ahead: NavigationData) =>
    pageDataFetch({
      router: loadingNow,
      queue: new PrefetchQueue(5),
      cache: new PageDataCache(),
      ahead,
      staleTimeOf: () => 0,
      routeOf: (page) => page,
    });

  test("React Router's request for it gets the answer asked for ahead, with no second request", async () => {
    vi.stubGlobal("window", { location: new URL(`${ORIGIN}/`) });
    const network: string[] = [];
    const nativeFetch = (async (input: RequestInfo | URL) => {
      network.push(String(input));
      return new Response('[{"_1":2}]', { status: 200 });
    }) as typeof fetch;
    const ahead = new NavigationData();
    ahead.start("/now.data", () => nativeFetch("/now.data"));
    const fetchPageData = fetchWhileLoadingNow(ahead);
    const answer = await fetchPageData(nativeFetch, new URL("/now.data", ORIGIN));
    expect(await answer.text()).toBe('[{"_1":2}]');
    expect(network).toEqual(["/now.data"]);
  });

  test("one that failed is the page-data fallback's, as React Router's own request would be (C3)", async () => {
    const assign = vi.fn();
    vi.stubGlobal("window", { location: { origin: ORIGIN, href: `${ORIGIN}/`, assign } });
    const ahead = new NavigationData();
    ahead.start("/now.data", () => Promise.reject(new TypeError("Failed to fetch")));
    const fetchPageData = fetchWhileLoadingNow(ahead);
    void fetchPageData(fetch, new URL("/now.data", ORIGIN));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("/now"));
  });
});
