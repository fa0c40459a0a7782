import type { WorkerdStructuredLog } from "miniflare";
import { describe, expect, test } from "vitest";
import { serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { TEST_DSN } from "../../src/testing/ingest-stand-in";

// The Worker reads its variables through one parsed configuration (packages/edge-platform/src/config.server.ts).

describe("an invalid variable stops the Worker loudly, never a silent default", () => {
  test("every request answers 500 without details; the log names the variable", async () => {
    const errors: WorkerdStructuredLog[] = [];
    const app = await serveBuild({
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
      vars: { ...TEST_VARS, SENTRY_DSN: TEST_DSN, SENTRY_TRACES_SAMPLE_RATE: "10%" },
      onLog: (log) => log.level === "error" && errors.push(log),
    });
    try {
      for (const path of ["/now", "/messages", "/monitoring", "/now.data"]) {
        const response = await fetch(new URL(path, app.url), {
          method: path === "/monitoring" ? "POST" : "GET",
        });
        expect(response.status, path).toBe(500);
        const body = await response.text();
        expect(body).toContain("configuration is invalid");
        expect(body).not.toContain("SENTRY");
        expect(response.headers.get("cache-control")).toContain("no-store");
      }
      const logged = errors.map((log) => log.message).join("\n");
      expect(logged).toContain("SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1");
    } finally {
      await app.close();
    }
  });
});

describe("the page's connect-src follows the DSN", () => {
  test.each([
    ["no DSN", "", "connect-src 'self';"],
    ["Sentry's SaaS: reports go through the same-origin tunnel", TEST_DSN, "connect-src 'self';"],
    [
      "a self-hosted Sentry: the browser reports to it directly",
      "https://0123456789abcdef@sentry.example.com/7",
      "connect-src 'self' https://sentry.example.com;",
    ],
  ])("%s", async (_, dsn, expected) => {
    const app = await serveBuild({
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
      vars: { SENTRY_DSN: dsn, SENTRY_TRACES_SAMPLE_RATE: "0" },
      onLog: () => {},
    });
    try {
      const response = await fetch(new URL("/now", app.url));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-security-policy")).toContain(expected);
      const html = await response.text();
      // The browser SDK's set-up in the root loader's data: a tunnel only for SaaS.
      if (dsn === TEST_DSN) expect(html).toContain("/monitoring?o=");
      else expect(html).not.toContain("/monitoring?o=");
    } finally {
      await app.close();
    }
  });
});
