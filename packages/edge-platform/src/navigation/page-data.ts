import type { DataRouter } from "react-router";
import { STATIC_ROUTE_IDS } from "../build-config";
import { PREFETCH_STALE_MS_DYNAMIC, PREFETCH_STALE_MS_STATIC } from "../constants";
import { streamWithPeeked } from "../http/peeked-stream";
import { reportAcrossNavigation } from "../reporting/carried-reports";
import { pageOfDataPath } from "../single-fetch";
import { isLeaving, navigateFully } from "./navigation-gate";
import type { PrefetchQueue } from "./prefetch-queue";
import {
  cancelledByRouter,
  type FullNavigation,
  isAppDataResponse,
  navigationLoading,
  opensLikePageData,
} from "./react-router-adapter";

/**
 * Page data in the browser (packages/edge-platform/docs/contract.md C3, C5, C9): how long a page's data
 * may be reused, the cache of static pages' data, the page's `fetch` React Router's page-data requests go
 * through, and the prefetch of a page's data.
 */

/**
 * How long prefetched data of a page served by `routeId` (the deepest route its URL matches) may be used
 * instead of a new request (C5).
 */
export function prefetchStaleTime(routeId: string | undefined, staticRoutes = STATIC_ROUTE_IDS): number {
  return routeId !== undefined && staticRoutes.has(routeId)
    ? PREFETCH_STALE_MS_STATIC
    : PREFETCH_STALE_MS_DYNAMIC;
}

/**
 * The cache key of a page-data request: everything its answer depends on, the path and the whole query
 * (the page's own parameters, and `_routes`, which names the loaders that run).
 */
export function pageDataKey(url: URL): string {
  return url.pathname + url.search;
}

/** A page-data response kept in memory: enough to answer React Router's fetch again, byte for byte. */
export type StoredResponse = { status: number; headers: [string, string][]; body: ArrayBuffer };

/**
 * Prefetched page data, each entry kept for its page's stale time (C5). A stale entry is never served; an
 * entry with a stale time of 0 is never stored.
 */
export class PageDataCache {
  readonly #entries = new Map<string, { stored: StoredResponse; expiresAt: number }>();
  readonly #loading = new Map<string, Promise<void>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  set(key: string, stored: StoredResponse, staleTimeMs: number): void {
    if (staleTimeMs <= 0) return;
    this.#entries.set(key, { stored, expiresAt: this.#now() + staleTimeMs });
  }

  /** The entry if it is still fresh; expired entries are dropped. */
  getFresh(key: string): StoredResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.stored;
  }

  isFresh(key: string): boolean {
    return this.getFresh(key) !== undefined;
  }

  /**
   * A navigation is fetching `key` and will store what it gets (`stored` settles when it has): until
   * then a prefetch of the same data would be a second request for it.
   */
  track(key: string, stored: Promise<void>): void {
    this.#loading.set(key, stored);
    void stored.finally(() => {
      if (this.#loading.get(key) === stored) this.#loading.delete(key);
    });
  }

  isLoading(key: string): boolean {
    return this.#loading.has(key);
  }
}

/**
 * Page data a navigation asked for when it started, beside its route code (navigation-gate.ts), kept until
 * React Router's request for the same URL takes it: without it, React Router asks for the data only once
 * the code is loaded, one round trip after the other. Taken once; dropped (its body cancelled) if the
 * navigation ends without asking for it.
 */
export class NavigationData {
  readonly #ahead = new Map<string, Promise<Response>>();

  /**
   * Starts `request` for `key`. `received` settles once the whole answer is here, or failed: the gate waits
   * for it a little (PAGE_DATA_WAIT_MS) before it lets React Router start. The answer's body is read twice for
   * that (a tee): React Router streams its own copy as before, from the start, whenever it asks. `drop`, once
   * the gate is done, stops that second reading and drops the answer if it was not taken.
   */
  start(key: string, request: () => Promise<Response>): { received: Promise<void>; drop: () => void } {
    const { promise: received, resolve: arrived } = Promise.withResolvers<void>();
    let watched: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const response = request().then(
      (answer) => {
        if (!answer.body) {
          arrived();
          return answer;
        }
        const [watchedCopy, takenCopy] = answer.body.tee();
        watched = watchedCopy.getReader();
        void readToEnd(watched).finally(arrived);
        return new Response(takenCopy, {
          status: answer.status,
          statusText: answer.statusText,
          headers: answer.headers,
        });
      },
      (error: unknown) => {
        arrived();
        throw error;
      },
    );
    response.catch(ignore);
    this.#ahead.set(key, response);
    return {
      received,
      drop: () => {
        // Nobody waits any more: a taken answer then streams to React Router alone (cancelled, it ends).
        void response.then(() => watched?.cancel()).catch(ignore);
        if (this.#ahead.get(key) !== response) return;
        this.#ahead.delete(key);
        void response.then((unused) => unused.body?.cancel()).catch(ignore);
      },
    };
  }

  take(key: string): Promise<Response> | undefined {
    const response = this.#ahead.get(key);
    this.#ahead.delete(key);
    return response;
  }
}

/** Reads a stream to its end; a stream that fails has ended too. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done) {}
  } catch {}
}

export async function toStored(response: Response): Promise<StoredResponse> {
  return { status: response.status, headers: [...response.headers], body: await response.arrayBuffer() };
}

export function toResponse(stored: StoredResponse): Response {
  return new Response(stored.body.slice(0), { status: stored.status, headers: stored.headers });
}

type PageDataFetchParts = {
  router: DataRouter;
  queue: PrefetchQueue;
  cache: PageDataCache;
  /** Data the navigation in progress asked for ahead of its code. */
  ahead?: NavigationData;
  /** How long a page's data may be reused (C5): above 0 (static), a navigation's fetch of it is kept. */
  staleTimeOf: (page: string) => number;
  /** The route of a page as reports name it (`/items/:id`), for the report of a C3 fallback. */
  routeOf: (page: string) => string;
};

/**
 * The page's `fetch`, as seen by React Router's page-data requests: a request whose prefetch is still
 * queued starts it at once and shares it; fresh prefetched data of a static page is answered without a
 * request; for the navigation in progress, an answer that is not page data becomes a full browser
 * navigation to the target (C3, C9), unless React Router aborted the request (a later navigation took its
 * place: the visitor's choice, not a failure). The navigation's request is the one it started ahead of its
 * code (`ahead`), when it did. A static page's data fetched by a navigation is kept like prefetched data,
 * and a prefetch asked for while it is on its way joins it instead of asking again. Everything else goes to
 * the network untouched.
 */
export function pageDataFetch({ router, queue, cache, ahead, staleTimeOf, routeOf }: PageDataFetchParts) {
  return async function fetchPageData(
    nativeFetch: typeof fetch,
    input: RequestInfo | URL,
    init?: RequestInit,
  ): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input), window.location.href);
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const page =
      url.origin === window.location.origin && method === "GET" ? pageOfDataPath(url.pathname) : undefined;
    if (page === undefined) return nativeFetch(input, init);
    // The page is on its way to a full navigation: the data would be for a page never shown.
    if (isLeaving()) return new Promise<never>(() => {});

    const key = pageDataKey(url);
    if (queue.has(key)) await queue.promote(key)?.catch(ignore);
    const cached = cache.getFresh(key);
    if (cached) return toResponse(cached);

    const navigation = navigationLoading(router, page);
    if (!navigation) return nativeFetch(input, init);
    const staleTime = staleTimeOf(page);
    const keep = staleTime > 0 ? keepFor(key, staleTime) : ignore;
    let response: Response | undefined;
    let answer: Response | undefined;
    try {
      response = await (ahead?.take(key) ?? nativeFetch(input, init));
      answer = await asPageData(response);
    } catch (error) {
      keep(undefined);
      // A later navigation (another click, the back button) took this one's place: not a failure of the
      // page's data, and its target is no longer where the visitor is going. React Router drops the error.
      if (cancelledByRouter(input, init)) throw error;
      return fallBack(page, navigation, response);
    }
    keep(answer?.status === 200 ? answer.clone() : undefined);
    return answer ?? fallBack(page, navigation, response);
  };

  /**
   * C3's full navigation, reported by the tab's next page as C4's is (carried-reports.ts): otherwise invisible,
   * the page unloads with its navigation incomplete (dropped, C8). A proxy's or a portal's page answered in
   * place of the data, a deploy whose Worker answers no page data, shows up with what answered: its status and
   * media type only (`503 text/html`), or `none` when nothing did.
   */
  function fallBack(
    page: string,
    navigation: FullNavigation,
    response: Response | undefined,
  ): Promise<never> {
    // Whatever a proxy wrote there, within Sentry's 200 characters for a tag's value.
    const mediaType =
      response?.headers.get("content-type")?.split(";")[0]?.trim().slice(0, 100) || "no media type";
    reportAcrossNavigation("A navigation fell back to a full page load: its page data could not be fetched", {
      route: routeOf(page),
      "navigation.fallback": "page-data-failed",
      "page-data.answer": response ? `${response.status} ${mediaType}` : "none",
    });
    return navigateFully(navigation);
  }

  /** Stores the copy it is given in the cache; until then prefetches of `key` wait for it. */
  function keepFor(key: string, staleTime: number): (copy: Response | undefined) => void {
    let keep: (copy: Response | undefined) => void = ignore;
    const copy = new Promise<Response | undefined>((resolve) => {
      keep = resolve;
    });
    const stored = copy
      .then(async (response) => {
        if (response) cache.set(key, await toStored(response), staleTime);
      })
      .catch(ignore);
    cache.track(key, stored);
    return keep;
  }
}

/**
 * Prefetches a static page's data from `dataUrl` (the URL a navigation will ask for) into the cache under
 * `key`. Resolves when stored; rejects when the answer is not page data.
 */
export async function prefetchPageData(
  nativeFetch: typeof fetch,
  cache: PageDataCache,
  { dataUrl, key, staleTime }: { dataUrl: string; key: string; staleTime: number },
): Promise<void> {
  const response = await nativeFetch(dataUrl, { credentials: "same-origin", priority: "low" });
  const body = await response.arrayBuffer();
  if (response.status !== 200 || !opensLikePageData(new Uint8Array(body)[0])) {
    throw new Error(`Not page data: ${dataUrl} (${response.status})`);
  }
  cache.set(key, { status: response.status, headers: [...response.headers], body }, staleTime);
}

/**
 * The response as page data, or undefined when it is something else: an error page that is not the
 * app's, or a body that is not a turbo-stream (peeked without losing streaming).
 */
async function asPageData(response: Response): Promise<Response | undefined> {
  if (response.status >= 400) return isAppDataResponse(response) ? response : undefined;
  if (!response.body || response.status === 204 || response.status === 304) return response;
  const reader = response.body.getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  do {
    first = await reader.read();
  } while (!first.done && first.value.byteLength === 0);
  if (first.done || !opensLikePageData(first.value[0])) {
    await reader.cancel().catch(ignore);
    return undefined;
  }
  const body = streamWithPeeked([first.value], reader);
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function ignore(): void {}
