import type { ServedBuild } from "edge-platform/local-server";
import {
  type IngestStandIn,
  receivedEvents,
  receivedTransactions,
  serveWithIngest,
} from "edge-platform/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";

// The product's /messages when its D1 table fails: reported without what the visitor typed. How the platform
// reports (and leaves out) is its own suite's: packages/edge-platform/tests/platform/every-server-error,
// report-privacy and server-reporting.test.ts, against its fixture.

let ingest: IngestStandIn;
let app: ServedBuild;

beforeAll(async () => {
  ({ app, ingest } = await serveWithIngest({ vars: { SENTRY_TRACES_SAMPLE_RATE: "1" } }));
});

afterAll(async () => {
  await app?.close();
  await ingest?.close();
});

beforeEach(() => {
  ingest.received.length = 0;
});

function get(path: string) {
  return fetch(new URL(path, app.url), { redirect: "manual", signal: AbortSignal.timeout(10_000) });
}

/** Envelopes are flushed after the response (waitUntil): give them time to arrive, then read them all. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 750));
}

describe("a failed post to /messages (its D1 table gone)", () => {
  test("a failed post is reported without the form's contents, the IP address or cookies", async () => {
    const html = await (await get("/messages")).text();
    const submissionId = html.match(/name="submissionId" value="([^"]+)"/)?.[1] ?? "";
    const db = await app.miniflare.getD1Database("DB");
    await db.exec("ALTER TABLE messages RENAME TO messages_away");
    try {
      const response = await fetch(new URL("/messages", app.url), {
        method: "POST",
        headers: {
          Origin: app.url.origin,
          Cookie: "session=secret-cookie-value",
          Authorization: "Bearer secret-token-value",
          "CF-Connecting-IP": "203.0.113.9",
          "User-Agent": "reporting-test",
        },
        body: new URLSearchParams({ submissionId, name: "Ada", text: "a private message to nobody" }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.status).toBe(503);
    } finally {
      await db.exec("ALTER TABLE messages_away RENAME TO messages");
    }
    await ingest.waitFor(3);
    await settle();
    const sent = ingest.received.map((request) => request.body.toString()).join("\n");
    // The write and the page's list read both fail: two error events, and the request's transaction.
    expect(receivedEvents(ingest.received)).toHaveLength(2);
    expect(receivedTransactions(ingest.received).length).toBeGreaterThan(0);
    expect(sent).toContain("reporting-test");
    for (const secret of [
      "a private message",
      "Ada",
      "secret-cookie-value",
      "secret-token-value",
      "203.0.113.9",
    ]) {
      expect(sent).not.toContain(secret);
    }
  });
});
