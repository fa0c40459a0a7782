import type { CachePurger } from "../app/platform/page-cache/cache-purger";

/** The local server's stand-in for Workers Cache (app/platform/local-server/workers-cache.ts), as a binding. */
type EmulatedCache = { WORKERS_CACHE_EMULATION?: Fetcher };

/**
 * The purge of the cache in front of this Worker: Cloudflare's Workers Cache (`ctx.cache`) when deployed with
 * `cache = { enabled = true }`, the local server's emulation behind the same options and result when served
 * locally (Miniflare has no Workers Cache), and none otherwise.
 */
export function workersCachePurger(ctx: ExecutionContext, env: Env): CachePurger | undefined {
  const { cache } = ctx;
  if (cache) return (options) => cache.purge(options);
  const emulation = (env as EmulatedCache).WORKERS_CACHE_EMULATION;
  if (!emulation) return undefined;
  return async (options) => {
    const response = await emulation.fetch("http://workers-cache.local/purge", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(options),
    });
    return response.json();
  };
}
