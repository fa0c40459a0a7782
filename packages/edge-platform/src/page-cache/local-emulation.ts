/**
 * Locally only: how the Worker's gateway reaches the Workers Cache emulation standing in front of its
 * `SharedPages` entrypoint, and how the emulation's fills reach that entrypoint (the local server,
 * packages/edge-platform/src/local-server/serve-build.ts; `npm run dev`,
 * packages/edge-platform/src/vite/dev-workers-cache.ts; packages/edge-platform/docs/caching.md, "Locally").
 * Miniflare has no Workers Cache, and no way to call another Worker's entrypoint with `ctx.props` chosen per
 * call, so:
 *
 * - the gateway sends a request that may be shared to the emulation, with its own method and headers and
 *   the headers below naming its URL, the entrypoint's props and its `request.cf`;
 * - the emulation keys it by path, query and props, and fills a miss by handing the request back to the
 *   Worker marked as its fill (the local server: to the SharedPages entrypoint, through a binding whose
 *   `ctx.props` say so; `npm run dev`: to the default entrypoint, with a header only the dev server sets),
 *   which calls `ctx.exports.SharedPages({ props })` with the props named.
 *
 * A deployed Worker has neither the emulation's binding nor a development build, so it never reads any of
 * this.
 */

/** The URL the gateway's request is for (the emulation's own address is not it). */
export const EMULATION_URL_HEADER = "x-edge-platform-workers-cache-url";
/** The `SharedPages` entrypoint's props for this request, as JSON: part of the emulation's key. */
export const EMULATION_PROPS_HEADER = "x-edge-platform-workers-cache-props";
/** The gateway's `request.cf`, as JSON: the fill's `request.cf` (the emulation runs in Node, where `cf` is lost). */
export const EMULATION_CF_HEADER = "x-edge-platform-workers-cache-cf";

/** Every header of the protocol: the gateway removes a client's copies before setting its own. */
export const EMULATION_HEADERS = [EMULATION_URL_HEADER, EMULATION_PROPS_HEADER, EMULATION_CF_HEADER] as const;

/**
 * The `ctx.props` marking a call of the Worker's SharedPages entrypoint as the emulation's fill: only the
 * local server's own Worker between the emulation and the app (serve-build.ts) holds a binding that sets it.
 */
export const LOCAL_FILL_PROP = "edgePlatformWorkersCacheFill";

/**
 * `npm run dev` only: the request header in which the dev server names the address of its emulation's
 * `fetch` (a random secret in the path), as DEV_WORKERS_CACHE_PURGE_HEADER names its purge. The dev server sets
 * it on every request it passes on and drops any a client sent; it also drops a client's
 * EMULATION_PROPS_HEADER, so in a development build a request carrying that header is the dev server's fill.
 */
export const DEV_WORKERS_CACHE_FETCH_HEADER = "x-edge-platform-dev-cache-fetch";

/**
 * The emulation runs in Node, reached over Miniflare's loopback HTTP, whose parser refuses what workerd takes:
 * header sections over 16 KiB (431) and control characters in a value (400). A request that would not fit
 * goes to the entrypoint without the emulation (on Cloudflare, the edge's own limits answer it first): the
 * emulation is skipped, never the app.
 */
export function fitsNodeParser(url: string, headers: Headers): boolean {
  // The URL travels twice: in the request line and in EMULATION_URL_HEADER.
  let size = 2 * url.length + 64;
  for (const [name, value] of headers) {
    if (hasControlCharacter(value)) return false;
    size += name.length + value.length + 4;
  }
  return size < 12 * 1024;
}

/** A control character other than tab (what Node's header parser refuses). */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}
