import fc from "fast-check";
import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REQUEST_BODY_TIMEOUT_MS } from "../../src/constants.ts";
import type { ServedBuild } from "../../src/local-server/serve-build.ts";
import {
  FIXTURE_BUILD_DIRECTORY,
  UNLIMITED_FOR_TESTS,
  UNLIMITED_PURGES,
} from "../../src/testing/build-under-test.ts";
import { type IngestStandIn, TEST_DSN, TEST_TUNNEL_QUERY } from "../../src/testing/ingest-stand-in.ts";
import { rawHead, rawRequest } from "../../src/testing/raw-http.ts";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

// Bad and generated envelope bodies sent to the /monitoring tunnel of the built fixture, over HTTP, byte for
// byte: each bad one answers a clear 4xx and is not forwarded, none reaches the server-error path, and of the
// generated ones exactly those for the configured DSN reach the ingest stand-in, unchanged. The refusals of
// origins, methods, queries and DSNs are monitoring-tunnel.test.ts's; the parser's breadth is
// tests/unit/fuzz-envelope.test.ts's, thousands of cases in-process. Bounded: 400 generated requests on
// 127.0.0.1 (a new seed each run).

const RUNS = { numRuns: 400 };
const encoder = new TextEncoder();
const TUNNEL = `/monitoring?${TEST_TUNNEL_QUERY}`;

let ingest: IngestStandIn;
let app: ServedBuild;
const errorLogs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  // Tracing off, so whatever reaches the stand-in was forwarded by the tunnel or is an error report.
  ({ app, ingest } = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "0" },
    // Hundreds of posts in a few seconds: each must reach the reader it tests, not the limit.
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: UNLIMITED_PURGES,
    onLog: (log) => log.level === "error" && errorLogs.push(log),
  }));
});

afterAll(async () => {
  await app?.close();
  await ingest?.close();
  expect(errorLogs.map((log) => log.message)).toEqual([]);
});

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("bad envelopes (nothing reaches the ingest stand-in)", () => {
  const header = JSON.stringify({ dsn: TEST_DSN });

  function postEnvelope(body: Uint8Array | string, extraLines: string[] = []) {
    const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    const head = rawHead("POST", TUNNEL, app.url, [
      "Content-Type: application/x-sentry-envelope",
      ...(extraLines.some((line) => line.startsWith("Content-Length")) ? [] : [`Content-Length: ${length}`]),
      ...extraLines,
    ]);
    return rawRequest(app.url, head, body);
  }

  test.each([
    ["empty", "", 400],
    ["a header cut off in the middle", header.slice(0, 20), 400],
    ["a header with invalid UTF-8", bytes('{"dsn":"', [0xff], '"}\n{}'), 400],
    ["a header that is a string", '"dsn"\n{}', 400],
    ["a header that is null", "null\n{}", 400],
    ["a header that is deeply nested", `${"[".repeat(10_000)}${"]".repeat(10_000)}\n`, 400],
    [
      "a header with a DSN for another host",
      `${JSON.stringify({ dsn: "https://k@evil.example/1" })}\n{}`,
      403,
    ],
  ])("%s: the expected 4xx, nothing forwarded", async (_, body, status) => {
    ingest.received.length = 0;
    expect((await postEnvelope(body)).status).toBe(status);
    expect(ingest.received).toEqual([]);
  });

  test(
    "an envelope that stops short of its Content-Length answers 408 once the body time-out passes",
    async () => {
      ingest.received.length = 0;
      const response = await postEnvelope(`${header}\n`, ["Content-Length: 5000"]);
      expect(response.status).toBe(408);
      expect(ingest.received).toEqual([]);
    },
    REQUEST_BODY_TIMEOUT_MS + 10_000,
  );
});

describe("generated envelopes", () => {
  const otherDsn = fc.oneof(
    fc.constant(TEST_DSN.replace("0123", "3210")),
    fc.constant(TEST_DSN.replace(/\d$/, "9")),
    fc.constant("https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/1"),
    fc.constant("https://0123456789abcdef0123456789abcdef@sentry.example.com/4500000000000002"),
    fc.webUrl(),
    fc.string(),
    fc.integer(),
    fc.constant(null),
  );
  type Case = { body: Uint8Array; valid: boolean };
  const envelope: fc.Arbitrary<Case> = fc.oneof(
    // Arbitrary bytes.
    fc.uint8Array({ maxLength: 512 }).map((body) => ({ body, valid: false })),
    // A well-formed header for another DSN, or none, followed by arbitrary items.
    fc
      .tuple(fc.option(otherDsn, { nil: undefined }), fc.uint8Array({ maxLength: 256 }))
      .map(([dsn, items]) => ({
        body: new Uint8Array([...encoder.encode(`${JSON.stringify({ dsn, event_id: "e" })}\n`), ...items]),
        valid: false,
      })),
    // The control: the configured DSN, arbitrary items (binary included). These must be forwarded.
    fc.uint8Array({ maxLength: 256 }).map((items) => ({
      body: new Uint8Array([...encoder.encode(`${JSON.stringify({ dsn: TEST_DSN })}\n`), ...items]),
      valid: true,
    })),
  );

  test("only envelopes for the configured DSN are forwarded, byte for byte; nothing answers 5xx", async () => {
    ingest.received.length = 0;
    const forwarded: Uint8Array[] = [];
    await fc.assert(
      fc.asyncProperty(envelope, async ({ body, valid }) => {
        const response = await fetch(new URL(TUNNEL, app.url), {
          method: "POST",
          body: new Uint8Array(body),
        });
        await response.arrayBuffer();
        expect(response.status).toBeOneOf(valid ? [200] : [400, 403]);
        if (valid) forwarded.push(body);
      }),
      RUNS,
    );
    // Each request was answered once the stand-in had the envelope: the tunnel waits for Sentry's answer.
    expect(forwarded.length).toBeGreaterThan(50);
    expect(ingest.received.map((request) => Buffer.from(request.body).toString("hex"))).toEqual(
      forwarded.map((body) => Buffer.from(body).toString("hex")),
    );
  }, 120_000);
});
