import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type {
  Miniflare,
  Request as MiniflareRequest,
  Response as MiniflareResponse,
  WorkerdStructuredLog,
} from "miniflare";
import { transformWithOxc } from "vite";
import { PACKAGE_SOURCE_DIRECTORY } from "../package-source.ts";
import {
  EMULATION_CF_HEADER,
  EMULATION_PROPS_HEADER,
  EMULATION_URL_HEADER,
  LOCAL_FILL_PROP,
} from "../page-cache/local-emulation.ts";
import { growMiniflareArenasGeometrically } from "./miniflare-arena-growth.ts";
import {
  type CachePurgeOptions,
  createWorkersCache,
  type PurgeLimit,
  type WorkersCache,
} from "./workers-cache.ts";

// Miniflare, and wrangler (which loads it), imported once the change to its arena's growth is in place
// (miniflare-arena-growth.ts): a static import would load it first.
growMiniflareArenasGeometrically();
const [miniflareModule, { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery }] = await Promise.all([
  import("miniflare"),
  import("wrangler"),
]);
const {
  convertV4MiniflareOptions,
  Miniflare: MiniflareClass,
  Response: MiniflareResponseClass,
} = miniflareModule;

/**
 * The product's root: where its scripts run (`npm start`, its tests), beside its build, migrations and
 * wrangler's local state. The platform package lives elsewhere (packages/edge-platform).
 */
const PROJECT_ROOT = process.cwd();
const DEFAULT_BUILD_DIRECTORY = join(PROJECT_ROOT, "build");
/** The deploy config that @cloudflare/vite-plugin writes next to the built Worker: there is a build when it is. */
export const BUILT_WORKER_CONFIG = join(DEFAULT_BUILD_DIRECTORY, "server", "wrangler.json");
/** Where `wrangler ... --local` keeps local state, so `npm start` sees what `wrangler d1 migrations apply --local` did. */
export const LOCAL_STATE_DIR = join(PROJECT_ROOT, ".wrangler/state/v3");

export type ServeBuildOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Variables layered over the deploy configuration's own `vars`. */
  vars?: Record<string, string>;
  /** Receives every line the Worker logs (console.*) instead of the terminal. */
  onLog?: (log: WorkerdStructuredLog) => void;
  /**
   * Local state directory (D1 and the rest). Without it, storage is in memory and starts empty: the
   * migrations are applied to it, so every test run starts from a fresh, migrated database.
   */
  persistTo?: string;
  /** Another build to serve (the benchmarks' baseline); `build/` by default. */
  buildDirectory?: string;
  /** Opens workerd's DevTools inspector on this port (127.0.0.1), e.g. to read the isolate's heap. */
  inspectorPort?: number;
  /**
   * Host names answered besides the loopback ones (127.0.0.1, [::1], localhost, *.localhost): exact names,
   * or `.example.com` for it and its subdomains (Vite's `server.allowedHosts` syntax). `npm start` takes
   * them from LOCAL_ALLOWED_HOSTS.
   */
  allowedHosts?: readonly string[];
  /**
   * Tests only: a limit for named Rate Limiting bindings in place of the deploy configuration's (suites that
   * send far more than one visitor would, all from this machine's one address). The period stays as
   * configured: the Worker's Retry-After was built from it.
   */
  rateLimits?: Readonly<Record<string, number>>;
  /**
   * Tests only: the name of a request header whose value the local server states as the client's address
   * (`CF-Connecting-IP`) in place of its socket's, so one test can be several clients. Never set by `npm
   * start`: there, as on Cloudflare, no client chooses its own address.
   */
  clientAddressHeader?: string;
  /**
   * The Workers Cache emulation in front of the app's SharedPages entrypoint (workers-cache.ts). On when the
   * build's deploy config enables Workers Cache for that entrypoint (`exports.SharedPages.cache`, else
   * `cache`, in wrangler.toml); `enabled` overrides that (tests).
   */
  workersCache?: {
    enabled?: boolean;
    /** Tests only: the purge API's rate limit in place of Cloudflare's Free plan's. */
    purgeLimit?: Partial<PurgeLimit>;
    maxBytes?: number;
    /** Tests only: the cache's clock (ms), moved by the test instead of waited for. */
    now?: () => number;
  };
};

export type ServedBuild = {
  url: URL;
  miniflare: Miniflare;
  /** The Workers Cache emulation, when on: its purge and its counts (tests). */
  workersCache?: WorkersCache;
  close(): Promise<void>;
};

/**
 * Serves the production build (`npm run build`) in workerd on 127.0.0.1, exactly as configured for
 * deployment (assets, bindings, compatibility settings), with no development proxy in front.
 */
export async function serveBuild({
  port = 0,
  vars = {},
  onLog,
  persistTo,
  buildDirectory = DEFAULT_BUILD_DIRECTORY,
  inspectorPort,
  allowedHosts = [],
  rateLimits = {},
  clientAddressHeader,
  workersCache: workersCacheOptions = {},
}: ServeBuildOptions = {}): Promise<ServedBuild> {
  // Unknown outside this process: see hostGuard.
  const appWorkerName = `app-${randomUUID()}`;
  const cacheOriginName = `${CACHE_ORIGIN_NAME}-${randomUUID()}`;
  // The deploy config that @cloudflare/vite-plugin writes next to the built Worker.
  const serverDirectory = join(buildDirectory, "server");
  // Every module of the build is listed explicitly (Miniflare 5 does not convert wrangler's module rules).
  const { modulesRules: _unused, ...workerOptions } = unstable_getMiniflareWorkerOptions(
    join(serverDirectory, "wrangler.json"),
  ).workerOptions;
  let cacheEnabled = workersCacheOptions.enabled ?? (await workersCacheEnabled(serverDirectory));
  if (cacheEnabled && !(await exportsSharedPages(serverDirectory))) {
    // A build from before the SharedPages entrypoint (a benchmark's baseline), or a product whose Worker does
    // not re-export it: nothing to put the emulation in front of.
    const missing =
      "Workers Cache stands in front of the Worker's SharedPages entrypoint, which this build does not export " +
      '(workers/app.ts: export { default, SharedPages } from "edge-platform/worker")';
    if (workersCacheOptions.enabled) throw new Error(`serveBuild: ${missing}.`);
    console.warn(`serveBuild: ${missing}: served without the Workers Cache emulation.`);
    cacheEnabled = false;
  }
  // Set once Miniflare exists: the cache's origin is the app Worker inside it.
  let miniflare: Miniflare | undefined;
  const workersCache = cacheEnabled
    ? createWorkersCache({
        fetchOrigin: async (request, props) => {
          if (!miniflare)
            throw new Error("serveBuild: the Workers Cache was asked before the server started");
          return fillFetch(miniflare, cacheOriginName, request, props);
        },
        purgeLimit: workersCacheOptions.purgeLimit,
        maxBytes: workersCacheOptions.maxBytes,
        ...(workersCacheOptions.now && { now: workersCacheOptions.now }),
      })
    : undefined;
  // wrangler describes workers in Miniflare 4's option shape; Miniflare 5 converts it itself.
  const options = convertV4MiniflareOptions({
    // Miniflare's own entry point, on a free port: its helpers (getD1Database, dispatchFetch) use it. Clients
    // are served by the guard's socket (hostGuard).
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        ...workerOptions,
        // Named so the host guard can bind to it; wrangler leaves the built Worker unnamed.
        name: appWorkerName,
        modulesRoot: serverDirectory,
        modules: await builtModules(serverDirectory),
        // wrangler types the bindings as unknown; they are the config's `vars` (a plain record).
        bindings: { ...(workerOptions.bindings as Record<string, unknown> | undefined), ...vars },
        ratelimits: withLimits(workerOptions.ratelimits as RateLimitOptions | undefined, rateLimits),
        // The emulation (its fetch and its purge API), as a binding only the app holds (nothing outside this
        // process can reach it).
        ...(workersCache && {
          serviceBindings: {
            ...(workerOptions.serviceBindings as Record<string, unknown> | undefined),
            [WORKERS_CACHE_BINDING]: (request: MiniflareRequest) => emulationEndpoint(workersCache, request),
          },
        }),
      },
      // The same runtime version as the app; wrangler types the option loosely.
      await hostGuard(
        appWorkerName,
        port,
        allowedHosts,
        workerOptions.compatibilityDate as string | undefined,
        clientAddressHeader,
      ),
      ...(workersCache
        ? [cacheOrigin(cacheOriginName, appWorkerName, workerOptions.compatibilityDate as string | undefined)]
        : []),
    ],
  });
  miniflare = new MiniflareClass({
    ...options,
    telemetry: { enabled: false },
    ...(onLog && { handleStructuredLogs: onLog }),
    // The same layout wrangler uses for `--local` state.
    ...(persistTo && { resourcePersistencePath: persistTo }),
    ...(inspectorPort !== undefined && { inspectorPort, inspectorHost: "127.0.0.1" }),
  });
  await miniflare.ready;
  const url = await miniflare.unsafeGetDirectURL(HOST_GUARD_NAME, "clients");
  if (!persistTo) await applyMigrations(miniflare, serverDirectory);
  const served = miniflare;
  return {
    url,
    miniflare: served,
    ...(workersCache && { workersCache }),
    close: async () => {
      await served.dispose();
      await workersCache?.settled();
    },
  };
}

/**
 * The service binding through which the app's Worker reaches the emulated Workers Cache (only locally): its
 * requests for the SharedPages entrypoint, and its purges.
 */
const WORKERS_CACHE_BINDING = "WORKERS_CACHE_EMULATION";

/**
 * Whether the build's deploy config caches the SharedPages entrypoint: its own `exports.SharedPages.cache`
 * when it says, else the Worker's `cache` (`enabled = true`).
 */
async function workersCacheEnabled(serverDirectory: string): Promise<boolean> {
  const config = JSON.parse(await readFile(join(serverDirectory, "wrangler.json"), "utf8")) as {
    cache?: { enabled?: boolean };
    exports?: Record<string, { cache?: { enabled?: boolean } } | undefined>;
  };
  return (config.exports?.SharedPages?.cache?.enabled ?? config.cache?.enabled) === true;
}

/** Whether the built Worker's entry module exports the SharedPages entrypoint (its last statement lists it). */
async function exportsSharedPages(serverDirectory: string): Promise<boolean> {
  const entry = await readFile(join(serverDirectory, "index.js"), "utf8");
  return /export\s*\{[^}]*\bSharedPages\b[^}]*\}/.test(entry.slice(-4096));
}

/**
 * The cache's way to the app's SharedPages entrypoint: a Worker that hands each fill to that entrypoint with
 * LOCAL_FILL_PROP in `ctx.props` (which only this binding sets), where the app calls `ctx.exports.SharedPages`
 * again with the props the fill names (page-cache/local-emulation.ts). Miniflare's bindings set `ctx.props`
 * once, in the configuration; the props of a SharedPages call change per request.
 */
function cacheOrigin(name: string, appWorkerName: string, compatibilityDate: string | undefined) {
  return {
    name,
    compatibilityDate,
    serviceBindings: {
      APP: { name: appWorkerName, entrypoint: "SharedPages", props: { [LOCAL_FILL_PROP]: true } },
    },
    modules: true,
    script: "export default { fetch(request, env) { return env.APP.fetch(request); } };",
  };
}

/** Followed by a random UUID, as the app's name is (hostGuard). */
const CACHE_ORIGIN_NAME = "local-workers-cache-origin";

/** This machine's time zone: a local visitor's `request.cf.timezone` unless they say another (local-cf.ts). */
const LOCAL_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The cache's fill, handed to the app's SharedPages entrypoint (cacheOrigin) with the props it was asked
 * with, and the gateway's `request.cf` (a visitor from anywhere, local-cf.ts, as the host guard gave it), which
 * the gateway sent along as JSON: Node's requests carry none.
 */
async function fillFetch(
  miniflare: Miniflare,
  originName: string,
  request: Request,
  props: unknown,
): Promise<Response> {
  const origin = await miniflare.getWorker(originName);
  const headers = new Headers(request.headers);
  const cf = parsedJson(headers.get(EMULATION_CF_HEADER));
  headers.delete(EMULATION_CF_HEADER);
  headers.delete(EMULATION_URL_HEADER);
  headers.set(EMULATION_PROPS_HEADER, JSON.stringify(props ?? null));
  const response = await origin.fetch(request.url, {
    method: request.method,
    headers: [...headers],
    redirect: "manual",
    ...(cf !== null && typeof cf === "object" && { cf: cf as Record<string, unknown> }),
  });
  return new Response(response.body as ReadableStream<Uint8Array> | null, {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
  });
}

function parsedJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The emulation, as the app's Worker reaches it (WORKERS_CACHE_BINDING): `/fetch` for a request the gateway
 * hands to the SharedPages entrypoint, `/purge` for a purge.
 */
async function emulationEndpoint(cache: WorkersCache, request: MiniflareRequest): Promise<MiniflareResponse> {
  const { pathname } = new URL(request.url);
  if (pathname === "/fetch") return fetchEndpoint(cache, request);
  if (pathname === "/purge") return purgeEndpoint(cache, request);
  return new MiniflareResponseClass("Not Found", { status: 404 });
}

/**
 * `GET` or `HEAD /fetch`, naming the request's URL and the entrypoint's props in the protocol's headers
 * (page-cache/local-emulation.ts), the request's own headers beside them: the cache's answer, with
 * `cf-cache-status`. The props are part of the key; the URL header is not kept.
 */
async function fetchEndpoint(cache: WorkersCache, request: MiniflareRequest): Promise<MiniflareResponse> {
  const url = request.headers.get(EMULATION_URL_HEADER);
  const props = parsedJson(request.headers.get(EMULATION_PROPS_HEADER));
  if (url === null || !URL.canParse(url) || props === undefined)
    return new MiniflareResponseClass("Bad Request: name the URL and the props", { status: 400 });
  if (request.method !== "GET" && request.method !== "HEAD")
    return new MiniflareResponseClass("Method Not Allowed", { status: 405, headers: { Allow: "GET, HEAD" } });
  const headers = [...request.headers].filter(
    ([name]) => name !== EMULATION_URL_HEADER && name !== EMULATION_PROPS_HEADER,
  );
  const answer = await cache.fetch(
    new Request(url, { method: request.method, headers, redirect: "manual" }),
    {
      props,
    },
  );
  return toMiniflareResponse(answer);
}

/**
 * `POST /purge` with `CachePurgeOptions` as JSON: `CachePurgeResult` as JSON, as `ctx.cache.purge` resolves
 * in production. Other methods 405, a body that is not JSON 400.
 */
async function purgeEndpoint(cache: WorkersCache, request: MiniflareRequest): Promise<MiniflareResponse> {
  if (request.method !== "POST")
    return new MiniflareResponseClass("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  let options: CachePurgeOptions;
  try {
    options = (await request.json()) as CachePurgeOptions;
  } catch {
    return new MiniflareResponseClass("Bad Request: the body must be JSON", { status: 400 });
  }
  return MiniflareResponseClass.json(cache.purge(options));
}

/** Node's fetch classes and Miniflare's (its own undici) are distinct: responses cross as their parts. */
function toMiniflareResponse(response: Response): MiniflareResponse {
  return new MiniflareResponseClass(response.body as never, {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
  });
}

/**
 * DNS rebinding: a page on evil.example whose name an attacker points at 127.0.0.1 would reach
 * this server as same-origin to itself (its Origin and the request URL agree), pass the Worker's
 * cross-site check and read the answers. So the local server answers only for the hosts it serves; the
 * rest get 403, as Vite's dev server does. A second, local-only Worker does the check (host-guard.ts), then
 * hands over through a service binding to the app with its assets (the Workers Cache emulation, when on,
 * stands behind the app's gateway, in front of its SharedPages entrypoint: workers-cache.ts): nothing of this
 * is in the deployed Worker, and static files are guarded too. The app stays the first Worker, so Miniflare's
 * helpers (`getD1Database`) still default to it.
 *
 * The guard listens on the served port itself (a direct socket), not behind Miniflare's entry point, which
 * obeys request headers of its own from any client: `MF-Original-URL` replaces the URL and
 * `MF-Route-Override: <worker name>` sends a request to any Worker, past a guard. It also answers a bare 500
 * to requests whose URL it cannot parse (`OPTIONS *`, two `Host` headers), which the guard answers 400.
 * (A CONNECT still gets workerd's own answer: packages/edge-platform/docs/decisions/016-platform-plugin-and-local-server.md.)
 * The entry point still listens on another port for Miniflare's helpers: there the app's Worker and the
 * cache's way to it have names nobody outside this process knows (a random UUID), so an override cannot reach
 * them.
 */
async function hostGuard(
  app: string,
  port: number,
  allowedHosts: readonly string[],
  compatibilityDate: string | undefined,
  clientAddressHeader: string | undefined,
) {
  return {
    name: HOST_GUARD_NAME,
    compatibilityDate,
    // node:zlib, for compression.ts.
    compatibilityFlags: ["nodejs_compat"],
    // Clients come to the guard's `clients` entrypoint, which refuses Miniflare's own headers (host-guard.ts).
    unsafeDirectSockets: [{ host: SERVED_ADDRESS, port, entrypoint: "clients" }],
    // Whatever reaches the entry point comes here too, never to the app directly.
    routes: ["*/*"],
    // The app (its answers compressed after any cache, as on Cloudflare).
    serviceBindings: { APP: app },
    bindings: {
      ALLOWED_HOSTS: allowedHosts.map((name) => name.toLowerCase()),
      CLIENT_ADDRESS: SERVED_ADDRESS,
      LOCAL_TIME_ZONE: LOCAL_TIME_ZONE,
      ...(clientAddressHeader && { CLIENT_ADDRESS_HEADER: clientAddressHeader.toLowerCase() }),
    },
    modulesRoot: PLATFORM_DIR,
    modules: await Promise.all(HOST_GUARD_MODULES.map(javaScriptModule)),
  };
}

const HOST_GUARD_NAME = "local-host-guard";
/** The only address the served socket listens on: loopback, so only this machine can connect. */
const SERVED_ADDRESS = "127.0.0.1";
const PLATFORM_DIR = PACKAGE_SOURCE_DIRECTORY;
/** The guard and what it imports, entry first: the same modules the rest of the platform uses. */
const HOST_GUARD_MODULES = [
  "local-server/host-guard.ts",
  "local-server/allowed-hosts.ts",
  "local-server/compression.ts",
  "visitor/local-cf.ts",
  "http/loopback.ts",
];

/** A TypeScript module of the platform as workerd runs it (types stripped; imports and names kept). */
async function javaScriptModule(path: string) {
  const source = await readFile(join(PLATFORM_DIR, path), "utf8");
  const { code } = await transformWithOxc(source, path, { lang: "ts" });
  return { type: "ESModule" as const, path: join(PLATFORM_DIR, path), contents: code };
}

/** Miniflare's Rate Limiting bindings, by name (wrangler types the option as unknown). */
type RateLimitOptions = Record<string, { namespace_id: string; simple: { limit: number; period?: 10 | 60 } }>;

/** The deploy configuration's Rate Limiting bindings, with the limits given in place of theirs. */
function withLimits(
  configured: RateLimitOptions | undefined,
  limits: Readonly<Record<string, number>>,
): RateLimitOptions | undefined {
  if (!configured) return configured;
  for (const name of Object.keys(limits)) {
    if (!(name in configured)) throw new Error(`serveBuild: no Rate Limiting binding named ${name}`);
  }
  return Object.fromEntries(
    Object.entries(configured).map(([name, binding]) => [
      name,
      { ...binding, simple: { ...binding.simple, limit: limits[name] ?? binding.simple.limit } },
    ]),
  );
}

/** The built Worker's ES modules, entry first (code split by dynamic imports lives in assets/). */
async function builtModules(serverDirectory: string): Promise<{ type: "ESModule"; path: string }[]> {
  const files = await readdir(serverDirectory, { recursive: true });
  const chunks = files.filter((file) => file.endsWith(".js") && file !== "index.js").sort();
  return ["index.js", ...chunks].map((file) => ({ type: "ESModule", path: join(serverDirectory, file) }));
}

/**
 * Applies each D1 database's migrations (its `migrations_dir`, as the build's deploy config names it relative to
 * itself), in order, to a fresh in-memory database: what `wrangler d1 migrations apply` does.
 */
async function applyMigrations(miniflare: Miniflare, serverDirectory: string): Promise<void> {
  const config = JSON.parse(await readFile(join(serverDirectory, "wrangler.json"), "utf8")) as {
    d1_databases?: { binding: string; migrations_dir?: string }[];
  };
  for (const { binding, migrations_dir = "migrations" } of config.d1_databases ?? []) {
    const directory = resolve(serverDirectory, migrations_dir);
    const db = await miniflare.getD1Database(binding);
    for (const file of (await readdir(directory)).filter((name) => name.endsWith(".sql")).sort()) {
      const statements = unstable_splitSqlQuery(await readFile(join(directory, file), "utf8"));
      await db.batch(statements.map((statement) => db.prepare(statement)));
    }
  }
}
