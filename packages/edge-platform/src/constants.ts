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

/**
 * A client navigation whose page data is on the network (a dynamic page's, or a prefetch not yet done) waits
 * this long at most, from the click, before React Router starts it (packages/edge-platform/docs/navigation.md,
 * "The click"). Data that comes within it is rendered with the new page in one render, as prefetched data is;
 * without the wait, React Router rendered the whole page once for its "loading" state and again when the data
 * came, and on a phone's CPU that first render held up the second. Data that takes longer shows the loading state
 * (a pending `NavLink`) this much later: 100 ms, within which an answer to a tap still feels immediate.
 */
export const PAGE_DATA_WAIT_MS = 100;

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
