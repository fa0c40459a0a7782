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

/**
 * A route's CSS for a page the visitor may go to: `prefetch`, not `preload`. A preload tells the browser
 * this page needs the file, and Chromium warns ("preloaded using link preload but not used within a few
 * seconds") when it does not; a prefetch is for a later navigation, kept in the HTTP cache, where React
 * Router's own stylesheet link finds it.
 */
export function prefetchStyle(url: string): Promise<void> {
  return preloadWithLink(url, { rel: "prefetch" });
}

/** A route's CSS for the navigation starting now (the route-code gate): it is used within moments. */
export function preloadStyle(url: string): Promise<void> {
  return preloadWithLink(url, { rel: "preload", as: "style" });
}

function preloadWithLink(url: string, attributes: { rel: string; as?: string }): Promise<void> {
  if (settled.has(url)) return Promise.resolve();
  const existing = pending.get(url);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = attributes.rel;
    if (attributes.as) link.as = attributes.as;
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
