import type { CachePurger } from "../page-cache/cache-purger";
import { DEV_WORKERS_CACHE_PURGE_HEADER } from "../page-cache/dev-purge";

/** The local server's stand-in for Workers Cache (packages/edge-platform/src/local-server/workers-cache.ts), as a binding. */
type EmulatedCache = { WORKERS_CACHE_EMULATION?: Fetcher };

/**
 * The purge of the cache in front of this Worker: Cloudflare's Workers Cache (`ctx.cache`) when deployed with
 * `cache = { enabled = true }`; locally, where Miniflare has no Workers Cache, the emulation's, behind the same
 * options and result: the local server's binding, or under `npm run dev` the endpoint the dev server names on
 * each request it passes on (packages/edge-platform/src/vite/dev-workers-cache.ts); none otherwise.
 */
export function workersCachePurger(
  ctx: ExecutionContext,
  env: Env,
  request: Request,
): CachePurger | undefined {
  const { cache } = ctx;
  if (cache) return (options) => cache.purge(options);
  const emulation = (env as EmulatedCache).WORKERS_CACHE_EMULATION;
  const devEndpoint = import.meta.env.DEV ? request.headers.get(DEV_WORKERS_CACHE_PURGE_HEADER) : null;
  if (!emulation && !devEndpoint) return undefined;
  return async (options) => {
    const purge = {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(options),
    };
    const response = emulation
      ? await emulation.fetch("http://workers-cache.local/purge", purge)
      : await fetch(devEndpoint as string, purge);
    return response.json();
  };
}
