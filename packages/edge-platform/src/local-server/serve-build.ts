import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  convertV4MiniflareOptions,
  Miniflare,
  type Request as MiniflareRequest,
  Response as MiniflareResponse,
  type WorkerdStructuredLog,
} from "miniflare";
import { transformWithOxc } from "vite";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";
import { takeLocalCf } from "./local-cf.ts";
import {
  type CachePurgeOptions,
  createWorkersCache,
  type PurgeLimit,
  type WorkersCache,
} from "./workers-cache.ts";

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
   * The Workers Cache emulation in front of the app (workers-cache.ts). On when the build's deploy config
   * enables Workers Cache (`cache = { enabled = true }` in wrangler.toml); `enabled` overrides that (tests).
   */
  workersCache?: {
    enabled?: boolean;
    /** Tests only: the purge API's rate limit in place of Cloudflare's Free plan's. */
    purgeLimit?: Partial<PurgeLimit>;
    maxBytes?: number;
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
  workersCache: workersCacheOptions = {},
}: ServeBuildOptions = {}): Promise<ServedBuild> {
  // Unknown outside this process: see hostGuard.
  const appWorkerName = `app-${randomUUID()}`;
  // The deploy config that @cloudflare/vite-plugin writes next to the built Worker.
  const serverDirectory = join(buildDirectory, "server");
  // Every module of the build is listed explicitly (Miniflare 5 does not convert wrangler's module rules).
  const { modulesRules: _unused, ...workerOptions } = unstable_getMiniflareWorkerOptions(
    join(serverDirectory, "wrangler.json"),
  ).workerOptions;
  const cacheEnabled = workersCacheOptions.enabled ?? (await workersCacheEnabled(serverDirectory));
  // Set once Miniflare exists: the cache's origin is the app Worker inside it.
  let miniflare: Miniflare | undefined;
  const workersCache = cacheEnabled
    ? createWorkersCache({
        fetchOrigin: async (request) => {
          if (!miniflare)
            throw new Error("serveBuild: the Workers Cache was asked before the server started");
          return appFetch(miniflare, request);
        },
        purgeLimit: workersCacheOptions.purgeLimit,
        maxBytes: workersCacheOptions.maxBytes,
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
        // The purge API, as a binding only the app holds (nothing outside this process can reach it).
        ...(workersCache && {
          serviceBindings: {
            ...(workerOptions.serviceBindings as Record<string, unknown> | undefined),
            [WORKERS_CACHE_BINDING]: (request: MiniflareRequest) => purgeEndpoint(workersCache, request),
          },
        }),
      },
      // The same runtime version as the app; wrangler types the option loosely.
      await hostGuard(
        appWorkerName,
        workersCache &&
          (async (request: MiniflareRequest) =>
            toMiniflareResponse(await workersCache.fetch(fromMiniflareRequest(request)))),
        port,
        allowedHosts,
        workerOptions.compatibilityDate as string | undefined,
      ),
      ...(workersCache
        ? [cacheOrigin(appWorkerName, workerOptions.compatibilityDate as string | undefined)]
        : []),
    ],
  });
  miniflare = new Miniflare({
    ...options,
    telemetry: { enabled: false },
    ...(onLog && { handleStructuredLogs: onLog }),
    // The same layout wrangler uses for `--local` state.
    ...(persistTo && { resourcePersistencePath: persistTo }),
    ...(inspectorPort !== undefined && { inspectorPort, inspectorHost: "127.0.0.1" }),
  });
  await miniflare.ready;
  const url = await miniflare.unsafeGetDirectURL(HOST_GUARD_NAME);
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

/** The service binding through which the app's Worker purges the emulated Workers Cache (only locally). */
const WORKERS_CACHE_BINDING = "WORKERS_CACHE_EMULATION";

/** Whether the build's deploy config enables Workers Cache (`cache = { enabled = true }`). */
async function workersCacheEnabled(serverDirectory: string): Promise<boolean> {
  const config = JSON.parse(await readFile(join(serverDirectory, "wrangler.json"), "utf8")) as {
    cache?: { enabled?: boolean };
  };
  return config.cache?.enabled === true;
}

/**
 * The cache's way to the app: a Worker that hands each request on through a service binding, as the guard
 * does, so the app's static assets answer first (a direct `getWorker(app).fetch` would skip them).
 */
function cacheOrigin(appWorkerName: string, compatibilityDate: string | undefined) {
  return {
    name: CACHE_ORIGIN_NAME,
    compatibilityDate,
    serviceBindings: { APP: appWorkerName },
    modules: true,
    script: "export default { fetch(request, env) { return env.APP.fetch(request); } };",
  };
}

const CACHE_ORIGIN_NAME = "local-workers-cache-origin";

/** This machine's time zone: a local visitor's `request.cf.timezone` unless they say another (local-cf.ts). */
const LOCAL_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The cache's request, handed to the app. A visitor from anywhere (local-cf.ts): the host guard leaves the
 * `x-local-cf-*` headers on a request for the cache, and they become the app's `request.cf.timezone` and
 * `.country` here, over what `request.cf` is on this path without them (Miniflare's, as its entry point
 * adds it).
 */
async function appFetch(miniflare: Miniflare, request: Request): Promise<Response> {
  const app = await miniflare.getWorker(CACHE_ORIGIN_NAME);
  const body = request.body ? await request.arrayBuffer() : undefined;
  const headers = new Headers(request.headers);
  const location = takeLocalCf(headers, LOCAL_TIME_ZONE);
  const cf = location && {
    ...(await miniflare.getCf()),
    clientAcceptEncoding: headers.get("Accept-Encoding") ?? "",
    ...location,
  };
  const response = await app.fetch(request.url, {
    method: request.method,
    headers: [...headers],
    body,
    redirect: "manual",
    ...(cf && { cf }),
  });
  return new Response(response.body as ReadableStream<Uint8Array> | null, {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
  });
}

/**
 * `POST /purge` with `CachePurgeOptions` as JSON: `CachePurgeResult` as JSON, as `ctx.cache.purge` resolves
 * in production. Other methods 405, a body that is not JSON 400.
 */
async function purgeEndpoint(cache: WorkersCache, request: MiniflareRequest): Promise<MiniflareResponse> {
  if (new URL(request.url).pathname !== "/purge") return new MiniflareResponse("Not Found", { status: 404 });
  if (request.method !== "POST")
    return new MiniflareResponse("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  let options: CachePurgeOptions;
  try {
    options = (await request.json()) as CachePurgeOptions;
  } catch {
    return new MiniflareResponse("Bad Request: the body must be JSON", { status: 400 });
  }
  return MiniflareResponse.json(cache.purge(options));
}

/** Node's fetch classes and Miniflare's (its own undici) are distinct: requests cross as their parts. */
function fromMiniflareRequest(request: MiniflareRequest): Request {
  const bodied = request.method !== "GET" && request.method !== "HEAD";
  return new Request(request.url, {
    method: request.method,
    headers: [...request.headers],
    body: bodied ? (request.body as ReadableStream<Uint8Array> | null) : null,
    redirect: "manual",
    ...(bodied && { duplex: "half" }),
  } as RequestInit);
}

function toMiniflareResponse(response: Response): MiniflareResponse {
  return new MiniflareResponse(response.body as never, {
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
 * hands over through a service binding to the app with its assets (or, when Workers Cache is on, to the
 * cache's emulation in Node, whose misses call the app: workers-cache.ts): nothing of this is in the deployed
 * Worker, and static files are guarded too. The app stays the first Worker, so Miniflare's helpers
 * (`getD1Database`) still default to it.
 *
 * The guard listens on the served port itself (a direct socket), not behind Miniflare's entry point, which
 * obeys request headers of its own from any client: `MF-Original-URL` replaces the URL and
 * `MF-Route-Override: <worker name>` sends a request to any Worker, past a guard. It also answers a bare 500
 * to requests whose URL it cannot parse (`OPTIONS *`, two `Host` headers), which the guard answers 400.
 * (A CONNECT still gets workerd's own answer: packages/edge-platform/docs/decisions/016-platform-plugin-and-local-server.md.)
 * The entry point still listens on another port for Miniflare's helpers: there the app's Worker has a name
 * nobody outside this process knows (a random UUID), so an override cannot reach it.
 */
async function hostGuard(
  app: string,
  cache: ((request: MiniflareRequest) => Promise<MiniflareResponse>) | undefined,
  port: number,
  allowedHosts: readonly string[],
  compatibilityDate: string | undefined,
) {
  return {
    name: HOST_GUARD_NAME,
    compatibilityDate,
    // node:zlib, for compression.ts.
    compatibilityFlags: ["nodejs_compat"],
    unsafeDirectSockets: [{ host: SERVED_ADDRESS, port }],
    // Whatever reaches the entry point comes here too, never to the app directly.
    routes: ["*/*"],
    // The app, and the Workers Cache emulation in front of it for GET and HEAD (compressed after it, as on
    // Cloudflare).
    serviceBindings: { APP: app, ...(cache && { CACHE: cache }) },
    bindings: {
      ALLOWED_HOSTS: allowedHosts.map((name) => name.toLowerCase()),
      CLIENT_ADDRESS: SERVED_ADDRESS,
      LOCAL_TIME_ZONE: LOCAL_TIME_ZONE,
    },
    modulesRoot: PLATFORM_DIR,
    modules: await Promise.all(HOST_GUARD_MODULES.map(javaScriptModule)),
  };
}

const HOST_GUARD_NAME = "local-host-guard";
/** The only address the served socket listens on: loopback, so only this machine can connect. */
const SERVED_ADDRESS = "127.0.0.1";
const PLATFORM_DIR = resolve(import.meta.dirname, "..");
/** The guard and what it imports, entry first: the same modules the rest of the platform uses. */
const HOST_GUARD_MODULES = [
  "local-server/host-guard.ts",
  "local-server/allowed-hosts.ts",
  "local-server/compression.ts",
  "local-server/local-cf.ts",
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
