import { resolve } from "node:path";
import { unstable_readConfig } from "wrangler";

/** A `[[ratelimits]]` entry of the deploy configuration, as wrangler reads it. */
export type RateLimitBinding = { name: string; simple: { limit: number; period?: number } };

/**
 * The period of each Rate Limiting binding, by name: handed to the Worker (build-config.ts
 * RATE_LIMIT_PERIODS), which tells a refused client to wait that long. wrangler checks the numbers
 * themselves (a period of 10 or 60).
 */
export function rateLimitPeriods(bindings: readonly RateLimitBinding[]): Record<string, number> {
  return Object.fromEntries(bindings.map(({ name, simple }) => [name, simple.period ?? 60]));
}

/**
 * The Rate Limiting bindings of the deploy configuration the build uses: `WRANGLER_CONFIG` when set (as
 * vite.config.ts reads it), wrangler.toml otherwise.
 */
export function deployedRateLimits(
  configPath = resolve(process.env.WRANGLER_CONFIG ?? "wrangler.toml"),
): RateLimitBinding[] {
  const config = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  return config.ratelimits;
}
