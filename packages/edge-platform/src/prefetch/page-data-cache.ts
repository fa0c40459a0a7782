/** A page-data response kept in memory: enough to answer React Router's fetch again, byte for byte. */
export type StoredResponse = { status: number; headers: [string, string][]; body: ArrayBuffer };

/**
 * Prefetched page data, each entry kept for its page's stale time (packages/edge-platform/docs/contract.md C5). A stale entry is never
 * served; an entry with a stale time of 0 is never stored.
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

export async function toStored(response: Response): Promise<StoredResponse> {
  return { status: response.status, headers: [...response.headers], body: await response.arrayBuffer() };
}

export function toResponse(stored: StoredResponse): Response {
  return new Response(stored.body.slice(0), { status: stored.status, headers: stored.headers });
}
