/**
 * The platform constants of the product contract (packages/edge-platform/docs/contract.md, "Platform constants").
 * Every number the contract names lives here and nowhere else.
 */

/** packages/edge-platform/docs/contract.md C5: at most this many prefetch requests (page data and route modules) run at once. */
export const PREFETCH_CONCURRENCY = 5;

/** packages/edge-platform/docs/contract.md C5: prefetched data of a dynamic (per-request) page is stale at once. */
export const PREFETCH_STALE_MS_DYNAMIC = 0;

/** packages/edge-platform/docs/contract.md C5: prefetched data of a static (pre-rendered) page is reused for 300 s. */
export const PREFETCH_STALE_MS_STATIC = 300_000;

/** packages/edge-platform/docs/contract.md C4: loading a route's code for a client navigation may take this long before a full navigation. */
export const ROUTE_LOADING_TIMEOUT_MS = 3_800;

/** packages/edge-platform/docs/contract.md C7: the same-origin path through which the browser sends error reports. */
export const MONITORING_TUNNEL_PATH = "/monitoring";

/** The largest envelope the tunnel accepts (Sentry's own limit for a whole envelope is larger). */
export const MONITORING_TUNNEL_MAX_BYTES = 1_048_576;

/** The whole exchange, first byte to last: how long the tunnel waits for Sentry before a 504. */
export const MONITORING_TUNNEL_TIMEOUT_MS = 10_000;

/** A request body (form or envelope) must arrive within this long; a stalled client gets 408. */
export const REQUEST_BODY_TIMEOUT_MS = 10_000;

/** The most of Sentry's answer the tunnel reads (Sentry answers a few bytes); more is a 502. */
export const MONITORING_TUNNEL_MAX_ANSWER_BYTES = 65_536;

/** The longest `Link` preload header a page gets (bytes); Cloudflare's Early Hints and proxies cap header sizes. */
export const PRELOAD_LINK_HEADER_MAX_BYTES = 2_048;
