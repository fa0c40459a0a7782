import { resolve } from "node:path";

/**
 * The platform's test fixture built with the real Worker (`npm run build:fixture`, packages/edge-platform/fixture/README.md):
 * what the platform's own tests (packages/edge-platform/tests/platform/) serve, so they do not depend on the product's routes.
 */
export const FIXTURE_BUILD_DIRECTORY = resolve(import.meta.dirname, "../../fixture/build");

/** The variables the test suites run with: the reference failure routes are mounted. */
export const TEST_VARS = { ENABLE_FAILURE_ROUTES: "true" } as const;

/**
 * Rate limits for suites that are not about limits (give as serveBuild's `rateLimits`): they send far more
 * than a visitor would, and all from this machine's one address (the local server's CF-Connecting-IP).
 * Suites about the limits, and the rest, run with wrangler.toml's own.
 */
export const UNLIMITED_FOR_TESTS = {
  MONITORING_RATE_LIMIT: 1_000_000,
  WRITE_RATE_LIMIT: 1_000_000,
  PURGE_RATE_LIMIT: 1_000_000,
} as const;

/**
 * The Workers Cache emulation without its purge rate (give as serveBuild's `workersCache`), for the same
 * suites: each stored message purges the latest messages, far more often than Cloudflare's rate allows.
 */
export const UNLIMITED_PURGES = { purgeLimit: { requestsPerMinute: 1_000_000, burst: 1_000_000 } } as const;
