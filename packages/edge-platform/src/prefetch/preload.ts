/**
 * Loads a route's code the way React Router's own prefetch links do, through `<link>` elements: a
 * `modulepreload` puts the module in the browser's module map, so the router's later `import()` of the
 * same URL costs nothing. Unlike a rendered link tag, each promise settles when its request does, which
 * is what lets the prefetch queue count requests in flight.
 */

const settled = new Set<string>();
const pending = new Map<string, Promise<void>>();

/** Marks URLs the page already loaded (its entry and hydrated routes), so they are never asked for again. */
export function markLoaded(urls: Iterable<string>): void {
  for (const url of urls) settled.add(url);
}

export function isLoaded(url: string): boolean {
  return settled.has(url);
}

export function preloadModule(url: string): Promise<void> {
  return preloadWithLink(url, { rel: "modulepreload" });
}

/** The media of a route stylesheet loaded ahead of its page: none, so it applies nowhere until the page links it. */
const ROUTE_STYLE_MEDIA = "not all";

/**
 * A route's CSS, for a page the visitor may go to (`priority` "low") or for the navigation starting now
 * (the route-code gate, "high"): a stylesheet link whose media matches nothing (`not all`), so it applies
 * to no page, raises no Chromium "preloaded but not used" warning, and puts the parsed sheet in the
 * browser's memory cache, where React Router's own stylesheet link of the new page finds it.
 * It also spares the navigation a wait: before it commits a route, React Router inserts a
 * `<link rel=preload as=style>` for each of the route's stylesheets and waits for its load event, unless a
 * `link[rel=stylesheet]` with that href is already in the document (`prefetchStyleLink` in React Router
 * 7.18; an assumption about its internals, checked in the browser by
 * packages/edge-platform/tests/platform/browser/link-prefetch.spec.ts, "a click to a prefetched static page waits for no
 * stylesheet"). With this link there, a prefetched page's CSS costs the click nothing: no load event to
 * wait for, which on a busy main thread is a task or more, with React's "loading" render in between.
 */
export function loadStyle(url: string, priority: "low" | "high"): Promise<void> {
  return preloadWithLink(url, { rel: "stylesheet", media: ROUTE_STYLE_MEDIA, fetchPriority: priority });
}

function preloadWithLink(
  url: string,
  attributes: { rel: string; as?: string; media?: string; fetchPriority?: "low" | "high" },
): Promise<void> {
  if (settled.has(url)) return Promise.resolve();
  const existing = pending.get(url);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = attributes.rel;
    if (attributes.as) link.as = attributes.as;
    if (attributes.media) link.media = attributes.media;
    if (attributes.fetchPriority) link.fetchPriority = attributes.fetchPriority;
    link.href = url;
    link.addEventListener("load", () => {
      settled.add(url);
      pending.delete(url);
      resolve();
    });
    link.addEventListener("error", () => {
      pending.delete(url);
      link.remove();
      reject(new Error(`Could not load ${url}`));
    });
    document.head.appendChild(link);
  });
  pending.set(url, promise);
  return promise;
}
