import type { ServedBuild } from "edge-platform/local-server";
import {
  type IngestStandIn,
  serveWithIngest,
  UNLIMITED_FOR_TESTS,
  UNLIMITED_PURGES,
} from "edge-platform/testing";
import fc from "fast-check";
import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedMessageCount } from "../../support/reference/messages-db.ts";

// Generated forms (fast-check) posted to the reference /messages action of the built Worker over HTTP, with
// reporting on (a local ingest stand-in). Bounded: 400 requests, on 127.0.0.1. Each request crosses workerd
// and D1 (about 35 ms here), so the count is what the suite's time allows; the generators' breadth is tested
// in-process, thousands of cases at a time (tests/unit/reference/fuzz-messages.test.ts; readFormData's in
// packages/edge-platform/tests/unit/fuzz-read-form-data.test.ts), and every run draws a new seed.
// The tunnel's generated envelopes are the platform's (packages/edge-platform/tests/platform/tunnel-bodies.test.ts).

const RUNS = { numRuns: 400 };
const encoder = new TextEncoder();

let ingest: IngestStandIn;
let app: ServedBuild;
const errorLogs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  // Tracing off, so whatever reaches the stand-in is an error report: none is expected.
  ({ app, ingest } = await serveWithIngest({
    vars: { SENTRY_TRACES_SAMPLE_RATE: "0" },
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: UNLIMITED_PURGES,
    onLog: (log) => log.level === "error" && errorLogs.push(log),
  }));
});

afterAll(async () => {
  await app?.close();
  await ingest?.close();
  expect(errorLogs.map((log) => log.message)).toEqual([]);
  expect(ingest.received.map((request) => request.body.toString())).toEqual([]);
});

describe("the /messages action under generated forms", () => {
  const REUSED_IDS = [
    "5d3c7a8e-2f41-4b6a-9c0d-1e2f3a4b5c6d",
    "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
    "0f9e8d7c-6b5a-4c3d-9e1f-a2b3c4d5e6f7",
  ];
  const field = fc.oneof(fc.string({ unit: "binary", maxLength: 80 }), fc.string({ maxLength: 600 }));
  const form = fc.oneof(
    // Fields as a browser encodes them, with a fresh submission id or a bad one.
    fc
      .record({
        // A few ids used again and again: a repeat with the same message must be a 303 that adds nothing,
        // with another message a 409.
        submissionId: fc.oneof(
          fc.uuid({ version: 4 }),
          fc.string({ maxLength: 40 }),
          fc.constantFrom(...REUSED_IDS),
        ),
        name: field,
        text: field,
      })
      .map((fields) => ({
        type: "application/x-www-form-urlencoded",
        body: encoder.encode(new URLSearchParams(fields).toString()),
        submissionId: fields.submissionId as string | null,
      })),
    // Arbitrary bytes under a form type.
    fc
      .tuple(
        fc.constantFrom(
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=b",
          "multipart/form-data",
        ),
        fc.uint8Array({ maxLength: 512 }),
      )
      .map(([type, body]) => ({ type, body, submissionId: null })),
  );

  test("every post is stored (303) or refused with a 4xx; a row is added exactly per submission id stored", async () => {
    const before = await storedMessageCount(app);
    // Only an id that already holds a message may be refused with 409; each id stores one row at most.
    const storedIds = new Set<string | null>();
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(form, async ({ type, body, submissionId }) => {
        const response = await fetch(new URL("/messages", app.url), {
          method: "POST",
          headers: { Origin: app.url.origin, "Content-Type": type },
          body: new Uint8Array(body),
          redirect: "manual",
        });
        await response.arrayBuffer();
        expect(response.status).toBeOneOf([303, 400, 409, 413, 415]);
        if (response.status === 409) {
          expect(storedIds.has(submissionId)).toBe(true);
          refused += 1;
        }
        if (response.status === 303) storedIds.add(submissionId);
      }),
      RUNS,
    );
    expect(storedIds.size).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
    expect(storedIds.has(null)).toBe(false);
    expect(await storedMessageCount(app)).toBe(before + storedIds.size);
  }, 120_000);
});
