import { randomUUID } from "node:crypto";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { Plugin, ViteDevServer } from "vite";
import {
  type CachePurgeOptions,
  createWorkersCache,
  type WorkersCache,
} from "../local-server/workers-cache.ts";
import { DEV_WORKERS_CACHE_PURGE_HEADER } from "../page-cache/dev-purge.ts";
import {
  DEV_WORKERS_CACHE_FETCH_HEADER,
  EMULATION_HEADERS,
  EMULATION_PROPS_HEADER,
  EMULATION_URL_HEADER,
} from "../page-cache/local-emulation.ts";
import { readWorkerConfig } from "./platform-worker-config.ts";

/** Marks the dev server's own request to itself, a fill of the emulation, which goes to the Worker as one. */
const ORIGIN_HEADER = "x-edge-platform-dev-cache-origin";

/** What only the dev server may tell the Worker: a client's copies are dropped first. */
const SERVER_ONLY_HEADERS = [
  ORIGIN_HEADER,
  DEV_WORKERS_CACHE_PURGE_HEADER,
  DEV_WORKERS_CACHE_FETCH_HEADER,
  ...EMULATION_HEADERS,
];

/**
 * `npm run dev` with the cache the Worker's SharedPages entrypoint has in front of it when deployed: the local
 * server's Workers Cache emulation (packages/edge-platform/src/local-server/workers-cache.ts,
 * packages/edge-platform/docs/caching.md), on when the deploy config enables Workers Cache for that
 * entrypoint, as `npm start` has it.
 *
 * @cloudflare/vite-plugin gives no way in between its Worker's entrypoints, nor a binding from the Worker to
 * this process. So the dev server names two addresses of its own (a random secret in the path) in headers of
 * each request it passes on to the Worker: the emulation's fetch, to which the Worker's gateway sends every
 * request it would hand to the SharedPages entrypoint (packages/edge-platform/src/worker/workers-cache.ts), and
 * its purge. The emulation fills a miss by asking the dev server again over loopback, with a secret header
 * that marks the request as its fill and the props it is for (page-cache/local-emulation.ts): the Worker's
 * default entrypoint then calls `ctx.exports.SharedPages` with them. A client can set none of these headers.
 */
export function devWorkersCache(): Plugin {
  return {
    name: "edge-platform:dev-workers-cache",
    apply: "serve",
    // Its middleware goes in before @cloudflare/vite-plugin's, which is listed first in vite.config.ts.
    enforce: "pre",
    configureServer(server) {
      const enabled = workersCacheEnabled();
      // In middleware mode another server listens, and the cache could not ask it again.
      const listening = server.httpServer !== null;
      const secret = randomUUID();
      const base = `/__edge-platform/workers-cache/${secret}`;
      const emptyCache = () =>
        createWorkersCache({ fetchOrigin: (request, props) => askAgain(server, request, secret, props) });
      let cache = enabled && listening ? emptyCache() : undefined;
      // An edit is never answered from a copy made by older code: a copy outlives the code that rendered it
      // (up to its s-maxage), and hydrating it with the edited modules is a mismatch. Any file the dev server
      // watches (the app, its styles, its configuration) starts an empty cache; a fill still running for the
      // old one stores into the old one, which nothing reads. Deployed, a new version has its own copies
      // (docs/caching.md): this is what that costs in development.
      if (cache) {
        server.watcher.on("all", (event) => {
          if (event === "change" || event === "add" || event === "unlink") cache = emptyCache();
        });
      }

      // First in the stack: no client's copy of the dev server's headers gets any further, cache on or off (a
      // development build trusts them).
      server.middlewares.use((req, res, next) => {
        // The Worker's own calls, at addresses only it is told (the protocol's headers are its own there).
        if (cache && req.url === `${base}/purge`) return void answerPurge(cache, req, res);
        if (cache && req.url === `${base}/fetch`) return void answerFetch(cache, req, res).catch(next);
        const fill = req.headers[ORIGIN_HEADER] === secret ? req.headers[EMULATION_PROPS_HEADER] : undefined;
        for (const name of SERVER_ONLY_HEADERS) setHeader(req, name, undefined);
        if (!cache) return next();
        setHeader(req, DEV_WORKERS_CACHE_PURGE_HEADER, `${loopbackOrigin(server)}${base}/purge`);
        setHeader(req, DEV_WORKERS_CACHE_FETCH_HEADER, `${loopbackOrigin(server)}${base}/fetch`);
        // The emulation's own fill: the Worker calls its SharedPages entrypoint with these props.
        if (typeof fill === "string") setHeader(req, EMULATION_PROPS_HEADER, fill);
        next();
      });
    },
  };
}

/**
 * Sets (or with no value removes) a request header as every later reader sees it: @cloudflare/vite-plugin
 * builds the Worker's request from `rawHeaders`, Vite reads `headers`.
 */
function setHeader(req: IncomingMessage, name: string, value: string | undefined): void {
  const raw: string[] = [];
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    const rawName = req.rawHeaders[index] ?? "";
    if (rawName.toLowerCase() !== name) raw.push(rawName, req.rawHeaders[index + 1] ?? "");
  }
  delete req.headers[name];
  if (value !== undefined) {
    raw.push(name, value);
    req.headers[name] = value;
  }
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}

/**
 * Whether the deploy config the dev server runs (`WRANGLER_CONFIG`, or wrangler.toml with the platform's part) caches the SharedPages
 * entrypoint: its own `exports.SharedPages.cache` when it says, else the Worker's `cache`.
 */
function workersCacheEnabled(): boolean {
  const config = readWorkerConfig();
  const entrypoint = (config.exports as Record<string, { cache?: { enabled?: boolean } }> | undefined)
    ?.SharedPages;
  return (entrypoint?.cache?.enabled ?? config.cache?.enabled) === true;
}

/** The port the dev server listens on (it has one: the plugin is off in middleware mode). */
function loopbackPort(server: ViteDevServer): number {
  return (server.httpServer?.address() as AddressInfo | null)?.port ?? 0;
}

function loopbackOrigin(server: ViteDevServer): string {
  return `http://127.0.0.1:${loopbackPort(server)}`;
}

/**
 * The emulation's fetch, as the Worker's gateway calls it: the request for the SharedPages entrypoint, its URL
 * and props named in the protocol's headers (page-cache/local-emulation.ts). The answer streams back with
 * `cf-cache-status`.
 */
async function answerFetch(cache: WorkersCache, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = header(req, EMULATION_URL_HEADER);
  let props: unknown;
  try {
    props = JSON.parse(header(req, EMULATION_PROPS_HEADER) ?? "");
  } catch {
    props = undefined;
  }
  if (!url || !URL.canParse(url) || props === undefined || (req.method !== "GET" && req.method !== "HEAD")) {
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("Bad Request: a GET or HEAD naming the URL and the props");
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === EMULATION_URL_HEADER || name === EMULATION_PROPS_HEADER) continue;
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
  }
  const response = await cache.fetch(new Request(url, { method: req.method, headers }), { props });
  const outgoing: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoing[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, outgoing);
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(res);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * The cache's origin: the request asked of the dev server again, over loopback, as the gateway sent it (the
 * visitor's `Host` included), marked as the emulation's fill for these props; never following a redirect.
 */
function askAgain(
  server: ViteDevServer,
  request: Request,
  secret: string,
  props: unknown,
): Promise<Response> {
  const url = new URL(request.url);
  const port = loopbackPort(server);
  const headers: Record<string, string | string[]> = {};
  request.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  headers.host = url.host;
  headers[ORIGIN_HEADER] = secret;
  headers[EMULATION_PROPS_HEADER] = JSON.stringify(props ?? null);
  return new Promise((resolvePromise, reject) => {
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method: request.method, path: `${url.pathname}${url.search}`, headers },
      (incoming) => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (typeof value === "string") answerHeaders.set(name, value);
          else if (Array.isArray(value)) for (const each of value) answerHeaders.append(name, each);
        }
        const status = incoming.statusCode ?? 502;
        const bodyless = request.method === "HEAD" || status === 204 || status === 304;
        if (bodyless) incoming.resume();
        resolvePromise(
          new Response(bodyless ? null : (Readable.toWeb(incoming) as ReadableStream), {
            status,
            statusText: incoming.statusMessage,
            headers: answerHeaders,
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

async function answerPurge(cache: WorkersCache, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  if (req.method !== "POST") return answer(405, { error: "POST only" }, { Allow: "POST" });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let options: CachePurgeOptions;
  try {
    options = JSON.parse(Buffer.concat(chunks).toString("utf8")) as CachePurgeOptions;
  } catch {
    return answer(400, { error: "the body must be JSON" });
  }
  answer(200, cache.purge(options));
}
