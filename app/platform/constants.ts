/**
 * The platform constants of the product contract (shared/SPEC.md, "Platform constants").
 * Every number the contract names lives here and nowhere else.
 */

/** SPEC C5: at most this many prefetch requests (page data and route modules) run at once. */
export const PREFETCH_CONCURRENCY = 5;

/** SPEC C5: prefetched data of a dynamic (per-request) page is stale at once. */
export const PREFETCH_STALE_MS_DYNAMIC = 0;

/** SPEC C5: prefetched data of a static (pre-rendered) page is reused for 300 s. */
export const PREFETCH_STALE_MS_STATIC = 300_000;

/** SPEC C4: loading a route's code for a client navigation may take this long before a full navigation. */
export const ROUTE_LOADING_TIMEOUT_MS = 3_800;

/** SPEC C7: the same-origin path through which the browser sends error reports. */
export const MONITORING_TUNNEL_PATH = "/monitoring";
