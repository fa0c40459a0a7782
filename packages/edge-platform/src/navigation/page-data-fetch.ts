import type { DataRouter } from "react-router";
import { streamWithPeeked } from "../http/peeked-stream";
import type { PageDataCache } from "../prefetch/page-data-cache";
import { toResponse, toStored } from "../prefetch/page-data-cache";
import type { PrefetchQueue } from "../prefetch/prefetch-queue";
import { pageOfDataPath, requestedRouteIds } from "../single-fetch";
import { navigateFully, navigationLoading } from "./full-navigation";
import { cancelledByRouter, isAppDataResponse, opensLikePageData } from "./react-router-adapter";

type PageDataFetchParts = {
  router: DataRouter;
  queue: PrefetchQueue;
  cache: PageDataCache;
  /** How long a page's data may be reused (packages/edge-platform/docs/contract.md C5): above 0 (static), a navigation's fetch of it is kept. */
  staleTimeOf: (page: string) => number;
};

/**
 * The page's `fetch`, as seen by React Router's page-data requests (packages/edge-platform/docs/contract.md C3, C5, C9): a request whose
 * prefetch is still queued starts it at once and shares it; fresh prefetched data of a static page is
 * answered without a request; for the navigation in progress, an answer that is not page data becomes a
 * full browser navigation to the target, unless React Router aborted the request (a later navigation took
 * its place: the visitor's choice, not a failure). A static page's full data fetched by a navigation is
 * kept like prefetched data, and a prefetch asked for while it is on its way joins it instead of asking
 * again. Everything else goes to the network untouched.
 */
export function pageDataFetch({ router, queue, cache, staleTimeOf }: PageDataFetchParts) {
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

    const dataPath = url.pathname;
    if (queue.has(dataPath)) await queue.promote(dataPath)?.catch(ignore);
    const cached = cache.getFresh(dataPath);
    if (cached) return toResponse(cached);

    const navigation = navigationLoading(router, page);
    if (!navigation) return nativeFetch(input, init);
    // Kept: the answer for the whole page (`_routes` asks for some of its routes only).
    const staleTime = requestedRouteIds(url) !== undefined ? 0 : staleTimeOf(page);
    const keep = staleTime > 0 ? keepFor(dataPath, staleTime) : ignore;
    let answer: Response | undefined;
    try {
      answer = await asPageData(await nativeFetch(input, init));
    } catch (error) {
      keep(undefined);
      // A later navigation (another click, the back button) took this one's place: not a failure of the
      // page's data, and its target is no longer where the visitor is going. React Router drops the error.
      if (cancelledByRouter(input, init)) throw error;
      return navigateFully(navigation);
    }
    keep(answer?.status === 200 ? answer.clone() : undefined);
    return answer ?? navigateFully(navigation);
  };

  /** Stores the copy it is given in the cache; until then prefetches of `dataPath` wait for it. */
  function keepFor(dataPath: string, staleTime: number): (copy: Response | undefined) => void {
    let keep: (copy: Response | undefined) => void = ignore;
    const copy = new Promise<Response | undefined>((resolve) => {
      keep = resolve;
    });
    const stored = copy
      .then(async (response) => {
        if (response) cache.set(dataPath, await toStored(response), staleTime);
      })
      .catch(ignore);
    cache.track(dataPath, stored);
    return keep;
  }
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
