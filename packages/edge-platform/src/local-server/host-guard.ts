import { takeLocalCf } from "../visitor/local-cf.ts";
import { isAllowedHost } from "./allowed-hosts.ts";
import { compressed } from "./compression.ts";

/**
 * The local server's front door (serve-build.ts runs it in workerd on the served port; never deployed).
 * A request reaches the app only when it is well formed, its `Host` header names one host and both that
 * host and the URL's are hosts this server answers (DNS rebinding). Miniflare's own request headers
 * (`MF-*`) from a client are refused (`clients`, below); any that reach the default entrypoint are dropped:
 * they mean nothing to the app, and nothing behind the guard may act on them.
 * `CF-Connecting-IP` is set as Cloudflare sets it. `x-local-cf-timezone` and `x-local-cf-country` give the
 * app's `request.cf.timezone` and `.country` (local-cf.ts), and never reach it as headers.
 * Answers leave compressed as Cloudflare would send them (compression.ts).
 */
export default {
  fetch: guarded,
} satisfies ExportedHandler<HostGuardEnv>;

/**
 * The served socket's entrypoint, where every client of `npm start`, the tests and the benchmarks connects
 * (serve-build.ts): Miniflare's own headers are refused there, not only dropped. `MF-CF-Blob` would give the
 * request a `request.cf` of the client's choosing (workerd reads it on this socket and removes the header, so
 * a `request.cf` at all means a client sent one), and `MF-Route-Override` or `MF-Original-URL` mean nothing
 * from a client. Miniflare's own entry port (its helpers: `dispatchFetch`, the bindings' proxies) comes to the
 * default entrypoint above, with the `request.cf` and headers Miniflare sets; it can name no Worker but this
 * guard (the others' names are random: serve-build.ts).
 */
export const clients = {
  fetch(request, env) {
    const internal = [...request.headers.keys()].filter((name) => name.startsWith("mf-"));
    if (internal.length > 0 || request.cf) {
      return plain(
        400,
        "Bad Request: Miniflare's own headers (MF-*) are not accepted from clients" +
          (internal.length > 0 ? ` (${internal.join(", ")}).` : " (MF-CF-Blob)."),
      );
    }
    return guarded(request, env);
  },
} satisfies ExportedHandler<HostGuardEnv>;

async function guarded(request: Request, env: HostGuardEnv): Promise<Response> {
  const host = singleHost(request.headers.get("Host"));
  const url = requestUrl(request);
  if (host === undefined || url === undefined)
    return plain(400, "Bad Request: this server answers requests for a path on one host.");
  for (const hostname of new Set([host, url.hostname])) {
    if (!isAllowedHost(hostname, env.ALLOWED_HOSTS))
      return plain(
        403,
        `Blocked request: this local server does not answer for ${JSON.stringify(hostname)}. ` +
          "Add the name to LOCAL_ALLOWED_HOSTS to allow it.",
      );
  }
  const forwarded = new Request(url, request);
  for (const name of [...forwarded.headers.keys()]) {
    if (name.startsWith("mf-")) forwarded.headers.delete(name);
  }
  // The client's address, as Cloudflare states it to the Worker (the per-client limits key on it), replacing
  // whatever the client sent, as Cloudflare does. workerd does not tell a Worker behind a direct socket who
  // connected (`request.cf` comes from a request header there), and this socket listens on a loopback
  // address only, so every client is on this machine: the address is the socket's own (serve-build.ts).
  const stated = env.CLIENT_ADDRESS_HEADER && forwarded.headers.get(env.CLIENT_ADDRESS_HEADER);
  if (env.CLIENT_ADDRESS_HEADER) forwarded.headers.delete(env.CLIENT_ADDRESS_HEADER);
  forwarded.headers.set("CF-Connecting-IP", stated || env.CLIENT_ADDRESS);
  // Everything reaches the app's gateway, which hands what may be shared to its SharedPages entrypoint
  // through the Workers Cache emulation when it is on (serve-build.ts). A visitor from anywhere
  // (local-cf.ts): the rest of `request.cf` stays as it came.
  const location = takeLocalCf(forwarded.headers, env.LOCAL_TIME_ZONE);
  const init = location && { cf: { ...request.cf, ...location } };
  return compressed(request, await env.APP.fetch(forwarded, init));
}

export type HostGuardEnv = {
  APP: Fetcher;
  ALLOWED_HOSTS: readonly string[];
  /** The loopback address the served socket listens on: every client's address (see fetch). */
  CLIENT_ADDRESS: string;
  /** Tests only (serveBuild's `clientAddressHeader`): a header whose value is the client's address instead. */
  CLIENT_ADDRESS_HEADER?: string;
  /** This machine's time zone, a local visitor's unless they say another (local-cf.ts). */
  LOCAL_TIME_ZONE: string;
};

/**
 * The hostname of a `Host` header that names one host (and port), as a URL spells it; undefined for
 * anything else, two `Host` headers included (they arrive joined by a comma).
 */
export function singleHost(header: string | null): string | undefined {
  if (!header) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return undefined;
  }
  return url.host === header.toLowerCase() ? url.hostname : undefined;
}

/**
 * The request's URL, with the scheme a TLS-terminating proxy in front states in `X-Forwarded-Proto` (as
 * Miniflare's entry point reads it, so `LOCAL_ALLOWED_HOSTS` behind a tunnel keeps working); undefined
 * when workerd could make no URL of the request line (`OPTIONS *`).
 */
function requestUrl(request: Request): URL | undefined {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return undefined;
  }
  const proto = request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim().toLowerCase();
  if (proto === "http" || proto === "https") url.protocol = proto;
  return url;
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
