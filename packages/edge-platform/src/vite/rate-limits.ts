import { type RateLimitBinding, readWorkerConfig } from "./platform-worker-config.ts";

export type { RateLimitBinding };

/**
 * The period of each Rate Limiting binding, by name: handed to the Worker (build-config.ts
 * RATE_LIMIT_PERIODS), which tells a refused client to wait that long. wrangler checks the numbers
 * themselves (a period of 10 or 60).
 */
export function rateLimitPeriods(bindings: readonly RateLimitBinding[]): Record<string, number> {
  return Object.fromEntries(bindings.map(({ name, simple }) => [name, simple.period ?? 60]));
}

/**
 * The Rate Limiting bindings the build deploys: those of `WRANGLER_CONFIG` when set (as cloudflareOptions
 * reads it), else the product's wrangler.toml's completed with the platform's own (platform-worker-config.ts).
 */
export function deployedRateLimits(configPath?: string): RateLimitBinding[] {
  return readWorkerConfig(configPath).ratelimits;
}
