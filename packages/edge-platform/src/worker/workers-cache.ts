import { clientOverLimit, type RateLimitName } from "../limits/rate-limit";
import type { CachePurger } from "../page-cache/cache-purger";
import { DEV_WORKERS_CACHE_PURGE_HEADER } from "../page-cache/dev-purge";
import {
  DEV_WORKERS_CACHE_FETCH_HEADER,
  EMULATION_CF_HEADER,
  EMULATION_HEADERS,
  EMULATION_PROPS_HEADER,
  EMULATION_URL_HEADER,
  fitsNodeParser,
  LOCAL_FILL_PROP,
} from "../page-cache/local-emulation";
import type { SharedPagesProps } from "../page-cache/loopback";
import type { WorkerEnv } from "../platform-env";

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
  env: WorkerEnv,
  request: Request,
): CachePurger | undefined {
  const purger = cachePurger(ctx, env, request);
  return purger && clientShareOf(purger, env, request);
}

/** The binding a client's purges count against (wrangler.toml: two a minute). */
const PURGE_LIMIT: RateLimitName = "PURGE_RATE_LIMIT";

/**
 * One client's purges, counted against its share (PURGE_LIMIT, per client as the write limits count): Workers
 * Cache allows the whole zone five purges a minute (bursts of 25), so one client posting at its full write
 * limit would spend them all and another visitor's write would find none (packages/edge-platform/docs/caching.md,
 * "Purging on write"). Past its share a purge is not asked for and fails as the cache's own limit fails:
 * the write is stored, its writer sent to a fresh copy, and readers see it when the copies expire.
 */
function clientShareOf(purger: CachePurger, env: WorkerEnv, request: Request): CachePurger {
  return async (options) => {
    const retryAfter = await clientOverLimit(env, PURGE_LIMIT, request);
    if (retryAfter === undefined) return purger(options);
    return {
      success: false,
      errors: [{ code: 429, message: `This client's share of purges is spent for ${retryAfter} s.` }],
    };
  };
}

function cachePurger(ctx: ExecutionContext, env: WorkerEnv, request: Request): CachePurger | undefined {
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

/**
 * Locally only: the gateway's request for the SharedPages entrypoint, sent to the Workers Cache emulation in
 * front of it (page-cache/local-emulation.ts) instead of through `ctx.exports`: the local server's binding, or
 * under `npm run dev` the address the dev server names on each request it passes on. Undefined when there is
 * no emulation (deployed, or the cache off), or when Node's parser would refuse the request (then the
 * entrypoint is called without the emulation, as the host guard used to skip it).
 */
export function throughLocalEmulation(
  request: Request,
  props: SharedPagesProps,
  env: WorkerEnv,
): Promise<Response> | undefined {
  const emulation = (env as EmulatedCache).WORKERS_CACHE_EMULATION;
  const devAddress = import.meta.env.DEV ? request.headers.get(DEV_WORKERS_CACHE_FETCH_HEADER) : null;
  if (!emulation && !devAddress) return undefined;
  const headers = new Headers(request.headers);
  headers.set(EMULATION_URL_HEADER, request.url);
  headers.set(EMULATION_PROPS_HEADER, JSON.stringify(props));
  // The fill's `request.cf` (the local server's visitor from anywhere, visitor/local-cf.ts); under
  // `npm run dev` the dev server's Worker gives every request its own.
  const cf = (request as { cf?: unknown }).cf;
  if (emulation && cf) headers.set(EMULATION_CF_HEADER, JSON.stringify(cf));
  if (!fitsNodeParser(request.url, headers)) return undefined;
  const init = { method: request.method, headers, redirect: "manual" } as const;
  return emulation
    ? emulation.fetch("http://workers-cache.local/fetch", init)
    : fetch(devAddress as string, init);
}

/**
 * Locally only: the emulation's fill of the SharedPages entrypoint, which Miniflare cannot call with props
 * chosen per call: the request to hand on (without the protocol's headers) and the props to call the
 * entrypoint with, through `ctx.exports`. Trusted only from the local server's own Worker between the
 * emulation and the app, whose binding to the SharedPages entrypoint sets LOCAL_FILL_PROP in `ctx.props`
 * (nothing else can), or in a development build, where the dev server hands its fills to the default
 * entrypoint and drops a client's EMULATION_PROPS_HEADER.
 */
export function localFillProps(
  request: Request,
  env: WorkerEnv,
  ctx: ExecutionContext,
): { request: Request; props: unknown } | undefined {
  const props = request.headers.get(EMULATION_PROPS_HEADER);
  if (props === null) return undefined;
  const fromLocalServer =
    (env as EmulatedCache).WORKERS_CACHE_EMULATION !== undefined &&
    (ctx.props as Record<string, unknown> | undefined)?.[LOCAL_FILL_PROP] === true;
  if (!fromLocalServer && !import.meta.env.DEV) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(props);
  } catch {
    return undefined;
  }
  const headers = new Headers(request.headers);
  for (const name of EMULATION_HEADERS) headers.delete(name);
  return { request: new Request(request, { headers }), props: parsed };
}
