import { randomUUID } from "node:crypto";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import type { Connect, Plugin, ViteDevServer } from "vite";
import { unstable_readConfig } from "wrangler";
import {
  type CachePurgeOptions,
  createWorkersCache,
  type WorkersCache,
} from "../local-server/workers-cache.ts";
import { DEV_WORKERS_CACHE_PURGE_HEADER } from "../page-cache/dev-purge.ts";

/** Marks the dev server's own request to itself, which goes past the cache to the Worker. */
const ORIGIN_HEADER = "x-edge-platform-dev-cache-origin";

/**
 * `npm run dev` with the cache the Worker has in front of it when deployed: the local server's Workers Cache
 * emulation (packages/edge-platform/src/local-server/workers-cache.ts, packages/edge-platform/docs/caching.md) between the dev server and the
 * Worker, on when the deploy config enables Workers Cache, as `npm start` has it.
 *
 * @cloudflare/vite-plugin gives no way in between: it hands what Vite does not serve itself (modules,
 * `/@vite/...`, files) to the Worker in a middleware of its own. So this plugin's middleware runs just before
 * that one and answers GET and HEAD from the emulation, whose origin is the dev server itself, asked again over
 * loopback with a secret header that lets the request through to the Worker. Other methods go straight on.
 * The Worker purges through an address of the dev server with a secret path, which the dev server names in a
 * header of each request it passes on (packages/edge-platform/src/worker/workers-cache.ts); a client cannot set either header.
 * Pre-rendered routes are not pre-rendered in dev and go straight to the Worker, uncached.
 */
export function devWorkersCache(): Plugin {
  return {
    name: "edge-platform:dev-workers-cache",
    apply: "serve",
    // Its middleware goes in before @cloudflare/vite-plugin's, which is listed first in vite.config.ts.
    enforce: "pre",
    configureServer(server) {
      // In middleware mode another server listens, and the cache could not ask it again.
      if (!server.httpServer || !workersCacheEnabled()) return;
      const secret = randomUUID();
      const purgePath = `/__edge-platform/workers-cache/${secret}/purge`;
      const cache = createWorkersCache({ fetchOrigin: (request) => askAgain(server, request, secret) });

      // First in the stack: no client's copy of the two headers gets any further.
      server.middlewares.use((req, res, next) => {
        const passed = req.headers[ORIGIN_HEADER] === secret;
        setHeader(req, ORIGIN_HEADER, undefined);
        if (req.url === purgePath) return void answerPurge(cache, req, res);
        setHeader(req, DEV_WORKERS_CACHE_PURGE_HEADER, `${loopbackOrigin(server)}${purgePath}`);
        if (passed) passedToWorker.add(req);
        next();
      });
      // Added after Vite's own middlewares: what reaches it is on its way to the Worker.
      return () => {
        server.middlewares.use((req, res, next) => {
          if (passedToWorker.has(req) || (req.method !== "GET" && req.method !== "HEAD")) return next();
          void answerFromCache(cache, req, res, server).catch(next);
        });
      };
    },
  };
}

/** The dev server's own requests to itself: past the cache. */
const passedToWorker = new WeakSet<IncomingMessage>();

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

/** Whether the deploy config the dev server runs (`WRANGLER_CONFIG` or wrangler.toml) enables Workers Cache. */
function workersCacheEnabled(): boolean {
  const config = unstable_readConfig(
    { config: resolve(process.env.WRANGLER_CONFIG ?? "wrangler.toml") },
    { hideWarnings: true },
  );
  return config.cache?.enabled === true;
}

/** The port the dev server listens on (it has one: the plugin is off in middleware mode). */
function loopbackPort(server: ViteDevServer): number {
  return (server.httpServer?.address() as AddressInfo | null)?.port ?? 0;
}

function loopbackOrigin(server: ViteDevServer): string {
  return `http://127.0.0.1:${loopbackPort(server)}`;
}

async function answerFromCache(
  cache: WorkersCache,
  req: Connect.IncomingMessage,
  res: ServerResponse,
  server: ViteDevServer,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
  }
  const url = new URL(req.originalUrl ?? req.url ?? "/", loopbackOrigin(server));
  const response = await cache.fetch(new Request(url, { method: req.method, headers }));
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

/**
 * The cache's origin: the request asked of the dev server again, over loopback, as the visitor sent it (its
 * `Host` included), marked to go past the cache; never following a redirect.
 */
function askAgain(server: ViteDevServer, request: Request, secret: string): Promise<Response> {
  const url = new URL(request.url);
  const port = loopbackPort(server);
  const headers: Record<string, string | string[]> = { [ORIGIN_HEADER]: secret };
  request.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
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
