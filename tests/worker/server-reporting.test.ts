import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import {
  type IngestStandIn,
  receivedEvents,
  receivedTransactions,
  serveWithIngest,
  startIngestStandIn,
  TEST_DSN,
  TEST_VARS,
} from "edge-platform/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";

const DIGEST = /Digest: (?:<!-- -->)?([0-9a-z]{13})</;

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

describe("server errors", () => {
  test("each is reported once, tagged with the digest the page shows", async () => {
    const html = await (await get("/failures/loader")).text();
    const digest = html.match(DIGEST)?.[1];
    await ingest.waitFor(1);
    await settle();
    const events = receivedEvents(ingest.received);
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest });
    expect(JSON.stringify(events[0]?.exception)).toContain("Reference failure: this loader throws");
  });

  test("a render error is reported once with its digest", async () => {
    const html = await (await get("/failures/render")).text();
    await ingest.waitFor(1);
    await settle();
    const events = receivedEvents(ingest.received);
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: html.match(DIGEST)?.[1] });
  });

  test("the page data request of a failing loader is reported once too", async () => {
    await (await get("/failures/loader.data")).text();
    await ingest.waitFor(1);
    await settle();
    expect(receivedEvents(ingest.received)).toHaveLength(1);
  });
});

describe("what reports leave out of the user's data", () => {
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

describe("what is not reported (packages/edge-platform/docs/contract.md C8)", () => {
  test("404s, thrown redirects and 405s produce no error event and no 404 transaction", async () => {
    await (await get("/items/nope")).text();
    await (await get("/no/such/page.data")).text();
    await (await get("/items/AMS")).text();
    await (await get("/items/AMS.data")).text();
    await (
      await fetch(new URL("/now", app.url), { method: "DELETE", signal: AbortSignal.timeout(10_000) })
    ).text();
    await settle();
    expect(receivedEvents(ingest.received)).toEqual([]);
    const statuses = receivedTransactions(ingest.received).map(
      (transaction) =>
        (transaction.contexts as { trace?: { data?: Record<string, unknown> } }).trace?.data?.[
          "http.response.status_code"
        ],
    );
    expect(statuses).not.toContain(404);
  });

  test("a successful page is traced (so the 404 case above can fail)", async () => {
    await (await get("/now")).text();
    await ingest.waitFor(1);
    await settle();
    expect(receivedTransactions(ingest.received).length).toBeGreaterThan(0);
  });
});

describe("reporting never holds up a response", () => {
  test.each([
    ["Sentry's host does not resolve", {}],
    ["the ingest never answers", "hang"],
  ])("pages answer when %s", async (_, mode) => {
    const silent = await startIngestStandIn();
    silent.answerWith(() => {});
    const unreachable = await serveBuild({
      vars: {
        ...TEST_VARS,
        SENTRY_DSN: TEST_DSN,
        SENTRY_TRACES_SAMPLE_RATE: "1",
        ...(mode === "hang" && { SENTRY_INGEST_TEST_ORIGIN: silent.origin }),
      },
      onLog: () => {},
    });
    try {
      for (const path of ["/now", "/failures/loader", "/items/ams.data", "/now", "/failures/loader"]) {
        // A hang fails here (the signal aborts); the time itself is measured in bench/, not asserted.
        const response = await fetch(new URL(path, unreachable.url), { signal: AbortSignal.timeout(5_000) });
        await response.text();
        expect([200, 500]).toContain(response.status);
      }
    } finally {
      await unreachable.close();
      await silent.close();
    }
  });
});
