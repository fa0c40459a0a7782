import { STYLESHEET_AHEAD } from "./react-router-adapter";

/**
 * The prefetch queue (packages/edge-platform/docs/contract.md C5) and the requests it runs: route modules
 * and stylesheets through `<link>` elements, page data through page-data.ts. Nothing is prefetched when the
 * browser asks to save data.
 */

/**
 * A queue of prefetch requests that never has more than `concurrency` in flight. Requests
 * wait in order; none is dropped; a request already queued or in flight is not made twice. When a page
 * is navigated to, its queued requests are promoted: they start at once and no longer count as
 * prefetches (they are the navigation). While a navigation is under way it holds the queue: no prefetch
 * starts until it is done, so that the page the visitor asked for is not behind pages they may ask for
 * (on HTTP/1.1 a browser opens six connections to an origin, and five prefetches would take five of them).
 */
export class PrefetchQueue {
  readonly #concurrency: number;
  readonly #queued: { key: string; run: () => Promise<void>; settle: Settle }[] = [];
  readonly #pending = new Map<string, Promise<void>>();
  #prefetchesInFlight = 0;
  #mostInFlight = 0;
  #holds = 0;
  readonly #onRelease: (() => void)[] = [];

  constructor(concurrency: number) {
    this.#concurrency = concurrency;
  }

  /** Adds a prefetch; resolves when it has run. The same key while queued or in flight shares one run. */
  enqueue(key: string, run: () => Promise<void>): Promise<void> {
    const pending = this.#pending.get(key);
    if (pending) return pending;
    let settle: Settle = { resolve: () => {}, reject: () => {} };
    const promise = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    promise.catch(() => {});
    this.#pending.set(key, promise);
    this.#queued.push({ key, run, settle });
    this.#drain();
    return promise;
  }

  /** The navigation needs `key` now: start it if it is still queued; share it if it is running. */
  promote(key: string): Promise<void> | undefined {
    const index = this.#queued.findIndex((entry) => entry.key === key);
    if (index !== -1) {
      const [entry] = this.#queued.splice(index, 1);
      if (entry) this.#start(entry, false);
    }
    return this.#pending.get(key);
  }

  /**
   * Intent (hover, focus, touch) on a link: its queued requests go to the front, in the given order, and
   * still wait for a free slot (they remain prefetches). Keys not queued are left alone.
   */
  moveAhead(keys: readonly string[]): void {
    const ahead = [];
    for (const key of keys) {
      const index = this.#queued.findIndex((entry) => entry.key === key);
      if (index !== -1) ahead.push(...this.#queued.splice(index, 1));
    }
    this.#queued.unshift(...ahead);
  }

  /**
   * Starts no queued prefetch until the returned release is called (each hold is released once; the queue
   * starts again when every hold is). Requests in flight go on; `promote` still starts a request at once.
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      if (this.#holds === 0) for (const task of this.#onRelease.splice(0)) task();
      this.#drain();
    };
  }

  get held(): boolean {
    return this.#holds > 0;
  }

  /** Runs `task` once no hold is left: at once when none is. */
  whenReleased(task: () => void): void {
    if (this.#holds === 0) task();
    else this.#onRelease.push(task);
  }

  has(key: string): boolean {
    return this.#pending.has(key);
  }

  get queuedCount(): number {
    return this.#queued.length;
  }

  get inFlightCount(): number {
    return this.#prefetchesInFlight;
  }

  /** The most prefetches ever in flight at once (for tests and benchmarks). */
  get mostInFlight(): number {
    return this.#mostInFlight;
  }

  #drain(): void {
    while (this.#holds === 0 && this.#prefetchesInFlight < this.#concurrency) {
      const entry = this.#queued.shift();
      if (!entry) return;
      this.#start(entry, true);
    }
  }

  #start(entry: { key: string; run: () => Promise<void>; settle: Settle }, asPrefetch: boolean): void {
    if (asPrefetch) {
      this.#prefetchesInFlight++;
      this.#mostInFlight = Math.max(this.#mostInFlight, this.#prefetchesInFlight);
    }
    const finish = () => {
      this.#pending.delete(entry.key);
      if (asPrefetch) this.#prefetchesInFlight--;
      this.#drain();
    };
    Promise.resolve()
      .then(entry.run)
      .then(
        () => {
          finish();
          entry.settle.resolve();
        },
        (error: unknown) => {
          finish();
          entry.settle.reject(error);
        },
      );
  }
}

type Settle = { resolve: () => void; reject: (error: unknown) => void };

/**
 * Runs `task` once the next frame is painted: a task queued from the frame's animation callback. A hidden page
 * paints no frames: what waits for one waits until the page is shown, when nothing it would prefetch has been
 * needed.
 */
export function afterNextPaint(task: () => void): void {
  requestAnimationFrame(() => setTimeout(task, 0));
}

/** Whether the browser asks to save data (Save-Data, or a 2g connection): then nothing is prefetched. */
export function savesData(): boolean {
  const connection = (
    navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }
  ).connection;
  return connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? "");
}

/*
 * Route code is loaded the way React Router's own prefetch links load it, through `<link>` elements: a
 * `modulepreload` puts the module in the browser's module map, so the router's later `import()` of the same
 * URL costs nothing. Unlike a rendered link tag, each promise settles when its request does, which is what
 * lets the queue count requests in flight.
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
 * A route's CSS, for a page the visitor may go to (`priority` "low") or for the navigation starting now
 * (the gate, "high"), as a stylesheet that applies nowhere (react-router-adapter.ts, `STYLESHEET_AHEAD`,
 * says why React Router then waits for nothing).
 */
export function loadStyle(url: string, priority: "low" | "high"): Promise<void> {
  return preloadWithLink(url, { ...STYLESHEET_AHEAD, fetchPriority: priority });
}

function preloadWithLink(
  url: string,
  attributes: { rel: string; media?: string; fetchPriority?: "low" | "high" },
): Promise<void> {
  if (settled.has(url)) return Promise.resolve();
  const existing = pending.get(url);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = attributes.rel;
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
