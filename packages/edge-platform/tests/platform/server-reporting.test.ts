import { describe, expect, test } from "vitest";
import { serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import {
  receivedEvents,
  receivedTransactions,
  startIngestStandIn,
  TEST_DSN,
} from "../../src/testing/ingest-stand-in.ts";
import { servedWithReporting } from "../support/reporting-server.ts";

// What the Worker does not report, and that reporting never holds up a page, on the fixture reporting.app. What it
// reports for each failure is every-server-error.test.ts's; what reports leave out, report-privacy.test.ts's.

const reporting = servedWithReporting({ SENTRY_TRACES_SAMPLE_RATE: "1" });

function get(path: string, init?: RequestInit) {
  return fetch(new URL(path, reporting.app.url), {
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
    ...init,
  });
}

/** Envelopes are flushed after the response (waitUntil): give them time to arrive, then read them all. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 750));
}

describe("what is not reported (packages/edge-platform/docs/contract.md C8)", () => {
  test("404s, thrown redirects and 405s produce no error event and no 404 transaction", async () => {
    await (await get("/items/nope")).text();
    await (await get("/no/such/page.data")).text();
    await (await get("/items/AMS")).text();
    await (await get("/items/AMS.data")).text();
    await (await get("/now", { method: "DELETE" })).text();
    await settle();
    expect(receivedEvents(reporting.ingest.received)).toEqual([]);
    const statuses = receivedTransactions(reporting.ingest.received).map(
      (transaction) =>
        (transaction.contexts as { trace?: { data?: Record<string, unknown> } }).trace?.data?.[
          "http.response.status_code"
        ],
    );
    expect(statuses).not.toContain(404);
  });

  test("a successful page is traced (so the 404 case above can fail)", async () => {
    await (await get("/now")).text();
    await reporting.ingest.waitFor(1);
    await settle();
    expect(receivedTransactions(reporting.ingest.received).length).toBeGreaterThan(0);
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
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
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
