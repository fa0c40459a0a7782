import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  PLATFORM_RATE_LIMITS,
  PLATFORM_VARS,
  readWorkerConfig,
  withPlatformConfig,
} from "../../src/vite/platform-worker-config.ts";

/** A product's wrangler.toml in a folder of its own, as wrangler reads it with the platform's part; then removed. */
function read(toml: string) {
  const folder = mkdtempSync(join(tmpdir(), "platform-worker-config-"));
  try {
    writeFileSync(join(folder, "wrangler.toml"), toml);
    return readWorkerConfig(join(folder, "wrangler.toml"));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const BARE = `name = "product"\nmain = "./workers/app.ts"\ncompatibility_date = "2026-10-12"\n`;

describe("the platform supplies its Worker's configuration (a product's wrangler.toml holds only its own)", () => {
  test("a wrangler.toml with a name and an entry gets every binding and setting the platform's Worker reads", () => {
    const config = read(BARE);
    expect(config.compatibility_flags).toEqual(["nodejs_compat"]);
    expect(config.assets).toMatchObject({ binding: "ASSETS", html_handling: "drop-trailing-slash" });
    expect(config.cache).toEqual({ enabled: true });
    expect(config.exports).toEqual({
      default: { type: "worker", cache: { enabled: false } },
      SharedPages: { type: "worker", cache: { enabled: true } },
    });
    expect(config.observability).toEqual({ enabled: true });
    expect(config.version_metadata).toEqual({ binding: "CF_VERSION_METADATA" });
    expect(config.ratelimits).toEqual(PLATFORM_RATE_LIMITS);
    expect(config.vars).toEqual(PLATFORM_VARS);
  });

  test("what the product declares wins: a limit's numbers, a variable, observability; its own bindings stay", () => {
    const config = read(`${BARE}
[observability]
enabled = false

[vars]
SENTRY_DSN = "https://public@o1.ingest.sentry.io/1"
PRODUCT_FLAG = "on"

[[ratelimits]]
name = "WRITE_RATE_LIMIT"
namespace_id = "1002"
simple = { limit = 20, period = 60 }

[[ratelimits]]
name = "SEARCH_RATE_LIMIT"
namespace_id = "2001"
simple = { limit = 5, period = 10 }
`);
    expect(config.observability).toEqual({ enabled: false });
    expect(config.vars).toMatchObject({
      SENTRY_DSN: "https://public@o1.ingest.sentry.io/1",
      PRODUCT_FLAG: "on",
      SENTRY_ENVIRONMENT: "production",
    });
    expect(config.ratelimits.map(({ name, simple }) => [name, simple.limit, simple.period])).toEqual([
      ["WRITE_RATE_LIMIT", 20, 60],
      ["SEARCH_RATE_LIMIT", 5, 10],
      ["MONITORING_RATE_LIMIT", 100, 60],
      ["PURGE_RATE_LIMIT", 2, 60],
    ]);
  });

  test("the routing rules follow the product's own, once each, however often the configuration is completed", () => {
    const config = read(`${BARE}\n[assets]\nrun_worker_first = ["/api/*"]\n`);
    withPlatformConfig(config, ["/about", "/glossary/*"]);
    withPlatformConfig(config, ["/about", "/glossary/*"]);
    expect(config.assets?.run_worker_first).toEqual(["/api/*", "/about", "/glossary/*"]);
    expect(config.ratelimits).toHaveLength(PLATFORM_RATE_LIMITS.length);
  });

  test("the assets or the version metadata under another name, or a platform variable that is not text, fail the build", () => {
    expect(() => read(`${BARE}\n[assets]\nbinding = "STATIC"\n`)).toThrow(/reads the assets as ASSETS/);
    expect(() => read(`${BARE}\n[version_metadata]\nbinding = "VERSION"\n`)).toThrow(
      /reads the version metadata as CF_VERSION_METADATA/,
    );
    expect(() => read(`${BARE}\n[vars]\nSENTRY_DSN = 1\n`)).toThrow(
      /SENTRY_DSN is the platform's and must be a string/,
    );
  });
});
