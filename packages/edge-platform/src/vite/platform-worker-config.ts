import { resolve } from "node:path";
import { type Unstable_Config, unstable_readConfig } from "wrangler";

/**
 * The Rate Limiting bindings the platform counts clients against (packages/edge-platform/docs/security.md,
 * "Limits"), with the numbers a product gets unless its wrangler.toml declares a binding of the same name
 * with its own. `limit` is how many requests one client (its IP address, IPv6 by its /64) may make per
 * `period` seconds (10 or 60, nothing else); past it the Worker answers 429 with `Retry-After: <period>`.
 * `namespace_id` names the counters in the Cloudflare account: a product that declares a binding keeps its
 * number when changing the limit, and picks others for its own bindings.
 */
export const PLATFORM_RATE_LIMITS = [
  // Envelopes the browser sends through /monitoring: a visitor sends a few a minute, so this leaves room for
  // several visitors behind one address while keeping one client from filling the Sentry quota.
  { name: "MONITORING_RATE_LIMIT", namespace_id: "1001", simple: { limit: 100, period: 60 } },
  // Writes: every POST, PUT, PATCH or DELETE that reaches a route's action. A person sends a form every few
  // seconds at most. A route can count against another binding, or none (limits/write-limits.server.ts).
  { name: "WRITE_RATE_LIMIT", namespace_id: "1002", simple: { limit: 10, period: 10 } },
  // Purges of shared pages a client's writes may ask for: two a minute each, under Workers Cache's own rate
  // (five a minute, bursts of 25, for the whole zone), so no one client's writes can spend the purges another
  // visitor's write needs (packages/edge-platform/docs/caching.md, "Purging on write").
  { name: "PURGE_RATE_LIMIT", namespace_id: "1003", simple: { limit: 2, period: 60 } },
] as const satisfies readonly RateLimitBinding[];

/**
 * The platform's variables and what they are when the product's wrangler.toml (`[vars]`), `.dev.vars` or
 * the deployment's settings do not say; config.server.ts checks each (the package README, `edge-platform/vite`,
 * `cloudflareOptions`).
 */
export const PLATFORM_VARS = {
  /** The failure routes (/failures/*) answer 404 unless "true"; the test server turns them on. */
  ENABLE_FAILURE_ROUTES: "false",
  /** Error reporting (contract C7); empty: reporting off, the app works the same. Public, so a var. */
  SENTRY_DSN: "",
  SENTRY_ENVIRONMENT: "production",
  /** Share of page loads, navigations and requests traced (0..1): what reporting costs in CPU. */
  SENTRY_TRACES_SAMPLE_RATE: "0.05",
  /** The /monitoring tunnel's limits; empty: the defaults of constants.ts. */
  SENTRY_TUNNEL_MAX_BYTES: "",
  SENTRY_TUNNEL_TIMEOUT_MS: "",
  /** Exact origins besides the app's own that outgoing requests carry the trace to, comma-separated. */
  SENTRY_TRACE_PROPAGATION_ORIGINS: "",
  /** Tests only: a loopback http origin standing in for Sentry's ingest; anything else is refused. */
  SENTRY_INGEST_TEST_ORIGIN: "",
} as const;

/** The binding names the platform's Worker reads; the product's Env never needs to declare them (platform-env.ts). */
export const PLATFORM_BINDINGS = { assets: "ASSETS", versionMetadata: "CF_VERSION_METADATA" } as const;

/** A `[[ratelimits]]` entry of the deploy configuration, as wrangler reads it. */
export type RateLimitBinding = {
  name: string;
  namespace_id?: string;
  simple: { limit: number; period?: number };
};

/** The part of wrangler's configuration the platform fills in. */
type PlatformPart = Pick<
  Unstable_Config,
  | "compatibility_flags"
  | "assets"
  | "cache"
  | "exports"
  | "observability"
  | "version_metadata"
  | "ratelimits"
  | "vars"
>;

/**
 * Completes the product's Worker configuration (its wrangler.toml, as wrangler reads it) with what the platform's
 * Worker needs, so a product's wrangler.toml holds only its own: Node.js compatibility, the assets binding and
 * its routing rules, Workers Cache in front of the SharedPages entrypoint only (packages/edge-platform/docs/caching.md),
 * observability, the version metadata binding, the three rate limits and the platform's variables. What the
 * product declares itself wins (a limit's numbers, a variable's value, observability off); the assets or the
 * version metadata under another binding name fail the build, since the platform's Worker reads them by name.
 * Changes `config` in place, as @cloudflare/vite-plugin's `config` callback may, and returns it; doing it twice
 * changes nothing more.
 */
export function withPlatformConfig<Config extends PlatformPart>(
  config: Config,
  runWorkerFirst: readonly string[] = [],
): Config {
  if (!config.compatibility_flags.includes("nodejs_compat")) config.compatibility_flags.push("nodejs_compat");
  const assets = config.assets ?? {};
  if (assets.binding !== undefined && assets.binding !== PLATFORM_BINDINGS.assets)
    throw new Error(
      `wrangler.toml: the platform's Worker reads the assets as ${PLATFORM_BINDINGS.assets}; remove [assets] binding = "${assets.binding}"`,
    );
  const ownRules = Array.isArray(assets.run_worker_first) ? assets.run_worker_first : [];
  config.assets = {
    html_handling: "drop-trailing-slash",
    ...assets,
    binding: PLATFORM_BINDINGS.assets,
    run_worker_first: [...new Set([...ownRules, ...runWorkerFirst])],
  };
  config.cache ??= { enabled: true };
  config.exports = {
    ...config.exports,
    // The gateway decides each request's visitor and is never stored; the shared pages it calls are.
    default: { type: "worker", cache: { enabled: false } },
    SharedPages: { type: "worker", cache: { enabled: true } },
  };
  config.observability ??= { enabled: true };
  if (config.version_metadata && config.version_metadata.binding !== PLATFORM_BINDINGS.versionMetadata)
    throw new Error(
      `wrangler.toml: the platform's Worker reads the version metadata as ${PLATFORM_BINDINGS.versionMetadata}; remove [version_metadata]`,
    );
  config.version_metadata = { binding: PLATFORM_BINDINGS.versionMetadata };
  for (const limit of PLATFORM_RATE_LIMITS) {
    if (!config.ratelimits.some(({ name }) => name === limit.name))
      config.ratelimits.push({ ...limit, simple: { ...limit.simple } });
  }
  for (const name of Object.keys(PLATFORM_VARS) as (keyof typeof PLATFORM_VARS)[]) {
    if (name in config.vars && typeof config.vars[name] !== "string")
      throw new Error(`wrangler.toml: [vars] ${name} is the platform's and must be a string`);
  }
  config.vars = { ...PLATFORM_VARS, ...config.vars };
  return config;
}

/**
 * The Worker's configuration as the build and the dev server run it: `WRANGLER_CONFIG` taken as it is, or the
 * product's wrangler.toml (or `configPath`) with the platform's part.
 */
export function readWorkerConfig(configPath?: string): Unstable_Config {
  const path = resolve(configPath ?? process.env.WRANGLER_CONFIG ?? "wrangler.toml");
  const config = unstable_readConfig({ config: path }, { hideWarnings: true });
  return process.env.WRANGLER_CONFIG && configPath === undefined ? config : withPlatformConfig(config);
}
