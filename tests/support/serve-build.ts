import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare, type WorkerdStructuredLog } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";

const DEFAULT_BUILD_DIRECTORY = resolve(import.meta.dirname, "../../build");
/**
 * The platform's test fixture built with the real Worker (`npm run build:fixture`, tests/fixture/README.md):
 * what the platform's own tests (tests/platform/) serve, so they do not depend on the product's routes.
 */
export const FIXTURE_BUILD_DIRECTORY = resolve(import.meta.dirname, "../../build-fixture");
/** The deploy config that @cloudflare/vite-plugin writes next to the built Worker: there is a build when it is. */
export const BUILT_WORKER_CONFIG = join(DEFAULT_BUILD_DIRECTORY, "server", "wrangler.json");
const MIGRATIONS_DIR = resolve(import.meta.dirname, "../../migrations");
/** Where `wrangler ... --local` keeps local state, so `npm start` sees what `wrangler d1 migrations apply --local` did. */
export const LOCAL_STATE_DIR = resolve(import.meta.dirname, "../../.wrangler/state/v3");

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
};

export type ServedBuild = { url: URL; miniflare: Miniflare; close(): Promise<void> };

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
}: ServeBuildOptions = {}): Promise<ServedBuild> {
  // The deploy config that @cloudflare/vite-plugin writes next to the built Worker.
  const serverDirectory = join(buildDirectory, "server");
  // Every module of the build is listed explicitly (Miniflare 5 does not convert wrangler's module rules).
  const { modulesRules: _unused, ...workerOptions } = unstable_getMiniflareWorkerOptions(
    join(serverDirectory, "wrangler.json"),
  ).workerOptions;
  // wrangler describes workers in Miniflare 4's option shape; Miniflare 5 converts it itself.
  const options = convertV4MiniflareOptions({
    host: "127.0.0.1",
    port,
    workers: [
      {
        ...workerOptions,
        // Named so the host guard can bind to it; wrangler leaves the built Worker unnamed.
        name: APP_WORKER_NAME,
        modulesRoot: serverDirectory,
        modules: await builtModules(serverDirectory),
        // wrangler types the bindings as unknown; they are the config's `vars` (a plain record).
        bindings: { ...(workerOptions.bindings as Record<string, unknown> | undefined), ...vars },
      },
      // The same runtime version as the app; wrangler types the option loosely.
      hostGuard(allowedHosts, workerOptions.compatibilityDate as string | undefined),
    ],
  });
  const miniflare = new Miniflare({
    ...options,
    telemetry: { enabled: false },
    ...(onLog && { handleStructuredLogs: onLog }),
    // The same layout wrangler uses for `--local` state.
    ...(persistTo && { resourcePersistencePath: persistTo }),
    ...(inspectorPort !== undefined && { inspectorPort, inspectorHost: "127.0.0.1" }),
  });
  const url = await miniflare.ready;
  if (!persistTo) await applyMigrations(miniflare);
  return { url, miniflare, close: () => miniflare.dispose() };
}

const APP_WORKER_NAME = "app";

/**
 * DNS rebinding: a page on evil.example whose name an attacker points at 127.0.0.1 would reach
 * this server as same-origin to itself (its Origin and the request URL agree), pass the Worker's
 * cross-site check and read the answers. So the local server answers only for the hosts it serves; the
 * rest get 403, as Vite's dev server does. A second, local-only Worker in front does the check (its route
 * takes every request), then hands over through a service binding to the app with its assets: nothing of
 * this is in the deployed Worker, and static files are guarded too. The app stays the first Worker, so
 * Miniflare's helpers (`getD1Database`) still default to it.
 */
function hostGuard(allowedHosts: readonly string[], compatibilityDate: string | undefined) {
  return {
    name: "local-host-guard",
    modules: true,
    compatibilityDate,
    routes: ["*/*"],
    serviceBindings: { APP: APP_WORKER_NAME },
    bindings: { ALLOWED_HOSTS: allowedHosts.map((name) => name.toLowerCase()) },
    script: `
      const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);
      function isAllowed(hostname, allowed) {
        if (LOOPBACK.has(hostname) || hostname.endsWith(".localhost")) return true;
        return allowed.some((name) =>
          name.startsWith(".") ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name,
        );
      }
      export default {
        fetch(request, env) {
          const { hostname } = new URL(request.url);
          if (isAllowed(hostname, env.ALLOWED_HOSTS)) return env.APP.fetch(request);
          return new Response(
            \`Blocked request: this local server does not answer for \${JSON.stringify(hostname)}. \` +
              "Add the name to LOCAL_ALLOWED_HOSTS to allow it.",
            { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } },
          );
        },
      };
    `,
  };
}

/** The built Worker's ES modules, entry first (code split by dynamic imports lives in assets/). */
async function builtModules(serverDirectory: string): Promise<{ type: "ESModule"; path: string }[]> {
  const files = await readdir(serverDirectory, { recursive: true });
  const chunks = files.filter((file) => file.endsWith(".js") && file !== "index.js").sort();
  return ["index.js", ...chunks].map((file) => ({ type: "ESModule", path: join(serverDirectory, file) }));
}

/** Applies migrations/*.sql in order to a fresh in-memory database (what `wrangler d1 migrations apply` does). */
async function applyMigrations(miniflare: Miniflare): Promise<void> {
  const db = await miniflare.getD1Database("DB");
  for (const file of (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith(".sql")).sort()) {
    const statements = unstable_splitSqlQuery(await readFile(join(MIGRATIONS_DIR, file), "utf8"));
    await db.batch(statements.map((statement) => db.prepare(statement)));
  }
}

/** LOCAL_ALLOWED_HOSTS (comma-separated, as vite.config.ts reads it for the dev server) as a list. */
export function allowedHostsFrom(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The variables the test suites run with: the reference failure routes are mounted. */
export const TEST_VARS = { ENABLE_FAILURE_ROUTES: "true" } as const;

/** How many messages the served Worker's D1 database holds (tests assert that refusals store nothing). */
export async function storedMessageCount(served: ServedBuild): Promise<number> {
  const db = await served.miniflare.getD1Database("DB");
  return (await db.prepare("SELECT count(*) AS n FROM messages").first<{ n: number }>())?.n ?? -1;
}
