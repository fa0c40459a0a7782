import { describe, expect, test } from "vitest";
import { PlatformConfigError, parsePlatformConfig, platformConfig } from "../../src/config.server";
import { MONITORING_TUNNEL_MAX_BYTES, MONITORING_TUNNEL_TIMEOUT_MS } from "../../src/constants";
import { TEST_DSN } from "../../src/testing/ingest-stand-in";

function problem(variables: Record<string, unknown>): string {
  try {
    parsePlatformConfig(variables);
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("defaults: every variable may be missing or empty", () => {
  test("nothing set: reporting off, failure routes off", () => {
    expect(parsePlatformConfig({})).toEqual({ failureRoutes: false, reporting: null });
  });

  test("empty strings and surrounding spaces count as not set", () => {
    expect(
      parsePlatformConfig({
        SENTRY_DSN: " ",
        ENABLE_FAILURE_ROUTES: "",
        SENTRY_TRACES_SAMPLE_RATE: "",
        SENTRY_ENVIRONMENT: "",
      }),
    ).toEqual({ failureRoutes: false, reporting: null });
  });

  test("a SaaS DSN: the tunnel is on, the limits are the contract's", () => {
    const config = parsePlatformConfig({ SENTRY_DSN: TEST_DSN, SENTRY_TRACES_SAMPLE_RATE: "0.1" });
    expect(config.reporting).toMatchObject({
      dsn: TEST_DSN,
      ingest: { orgId: "4500000000000001", projectId: "4500000000000002", region: undefined },
      directOrigin: undefined,
      environment: "production",
      release: undefined,
      tracesSampleRate: 0.1,
      ingestTestOrigin: undefined,
      tracePropagationOrigins: [],
      tunnel: { maxBytes: MONITORING_TUNNEL_MAX_BYTES, timeoutMs: MONITORING_TUNNEL_TIMEOUT_MS },
    });
  });

  test("a self-hosted DSN: no tunnel, the browser reports to its origin", () => {
    const config = parsePlatformConfig({
      SENTRY_DSN: "https://abc123@sentry.example.com/errors/42",
      SENTRY_ENVIRONMENT: "staging",
      CF_VERSION_METADATA: { id: "v-1" },
    });
    expect(config.reporting).toMatchObject({
      ingest: undefined,
      directOrigin: "https://sentry.example.com",
      environment: "staging",
      release: "v-1",
      tracesSampleRate: 0,
    });
  });

  test("values are read as written", () => {
    const config = parsePlatformConfig({
      SENTRY_DSN: TEST_DSN,
      ENABLE_FAILURE_ROUTES: "true",
      SENTRY_TRACES_SAMPLE_RATE: "1",
      SENTRY_TUNNEL_MAX_BYTES: "2048",
      SENTRY_TUNNEL_TIMEOUT_MS: "500",
      SENTRY_INGEST_TEST_ORIGIN: "http://127.0.0.1:9000",
      SENTRY_TRACE_PROPAGATION_ORIGINS: "https://api.example.com, http://127.0.0.1:9001",
    });
    expect(config.failureRoutes).toBe(true);
    expect(config.reporting).toMatchObject({
      tracesSampleRate: 1,
      tracePropagationOrigins: ["https://api.example.com", "http://127.0.0.1:9001"],
      ingestTestOrigin: "http://127.0.0.1:9000",
      tunnel: { maxBytes: 2048, timeoutMs: 500 },
    });
  });
});

describe("an invalid value is refused with the variable's name, never replaced by a default", () => {
  test.each([
    [{ SENTRY_TRACES_SAMPLE_RATE: "10%" }, "SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1"],
    [{ SENTRY_TRACES_SAMPLE_RATE: "1.5" }, "SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1"],
    [{ ENABLE_FAILURE_ROUTES: "yes" }, 'ENABLE_FAILURE_ROUTES must be "true" or "false"'],
    [{ SENTRY_TUNNEL_MAX_BYTES: "-1" }, "SENTRY_TUNNEL_MAX_BYTES must be a whole number"],
    [{ SENTRY_TUNNEL_TIMEOUT_MS: "1e3" }, "SENTRY_TUNNEL_TIMEOUT_MS must be a whole number"],
    [{ SENTRY_ENVIRONMENT: "my env" }, "SENTRY_ENVIRONMENT must be 1 to 64 characters"],
    [{ SENTRY_INGEST_TEST_ORIGIN: "http://ingest.example" }, "SENTRY_INGEST_TEST_ORIGIN must be a loopback"],
    [{ SENTRY_DSN: "not a dsn" }, "SENTRY_DSN is not a URL"],
    [{ SENTRY_DSN: "https://key@sentry.io/1" }, "SENTRY_DSN names sentry.io but is not an ingest DSN"],
    [{ SENTRY_DSN: "http://key@sentry.example.com/1" }, "SENTRY_DSN must use https"],
    [{ SENTRY_DSN: "https://key:secret@sentry.example.com/1" }, "SENTRY_DSN must not contain a secret key"],
    [{ SENTRY_DSN: "https://sentry.example.com/1" }, "SENTRY_DSN has no public key"],
    [
      { SENTRY_DSN: "https://key@sentry.example.com/project" },
      "SENTRY_DSN must end with a numeric project id",
    ],
    [{ SENTRY_DSN: 42 }, "SENTRY_DSN must be a string"],
  ])("%j", (variables, message) => {
    expect(problem(variables)).toContain(message);
  });

  test.each([
    "api.example.com",
    "https://api.example.com/v1",
    "http://api.example.com",
    "https://*.example.com",
  ])("SENTRY_TRACE_PROPAGATION_ORIGINS %j", (origins) => {
    expect(problem({ SENTRY_TRACE_PROPAGATION_ORIGINS: origins })).toContain(
      "SENTRY_TRACE_PROPAGATION_ORIGINS must be origins separated by commas",
    );
  });

  test("every invalid variable is named at once", () => {
    const message = problem({ SENTRY_TRACES_SAMPLE_RATE: "x", SENTRY_TUNNEL_MAX_BYTES: "0" });
    expect(message).toMatch(/SENTRY_TRACES_SAMPLE_RATE.*SENTRY_TUNNEL_MAX_BYTES/);
  });
});

test("platformConfig parses once per env object", () => {
  const env = { SENTRY_DSN: TEST_DSN };
  expect(platformConfig(env)).toBe(platformConfig(env));
  expect(platformConfig({ ...env })).not.toBe(platformConfig(env));
});
