import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import {
  type IngestStandIn,
  receivedEvents,
  receivedTransactions,
  startIngestStandIn,
  TEST_DSN,
} from "../../src/testing/ingest-stand-in.ts";
import { reportingVars } from "../../src/testing/serve-with-ingest.ts";

// Requests the Worker does not trace skip the SDK's request wrapper (packages/edge-platform/docs/PERFORMANCE.md, "Reporting's
// cost"): their errors must still be reported exactly as traced ones are, and the browser's trace decision
// must hold.

const DIGEST = /Digest: (?:<!-- -->)?([0-9a-z]{13})</;
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";

let ingest: IngestStandIn;
let neverSampled: ServedBuild;
let alwaysSampled: ServedBuild;

beforeAll(async () => {
  ingest = await startIngestStandIn();
  const vars = (rate: string) => reportingVars(ingest, { SENTRY_TRACES_SAMPLE_RATE: rate });
  neverSampled = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: vars("0"),
    onLog: () => {},
  });
  alwaysSampled = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: vars("1"),
    onLog: () => {},
  });
});

afterAll(async () => {
  await neverSampled?.close();
  await alwaysSampled?.close();
  await ingest?.close();
});

beforeEach(() => {
  ingest.received.length = 0;
});

function get(app: ServedBuild, path: string, headers: Record<string, string> = {}) {
  return fetch(new URL(path, app.url), { headers, redirect: "manual", signal: AbortSignal.timeout(10_000) });
}

/** Envelopes are sent after the response (waitUntil): wait for them, then a little longer for strays. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 750));
}

describe("a request that is not traced", () => {
  test("reports its server error once, with the page's digest and the request's method and path", async () => {
    const html = await (await get(neverSampled, "/failures/loader")).text();
    await ingest.waitFor(1);
    await settle();
    const events = receivedEvents(ingest.received);
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: html.match(DIGEST)?.[1] });
    expect(events[0]?.request).toMatchObject({ method: "GET" });
    expect(String((events[0]?.request as { url?: string })?.url)).toMatch(/\/failures\/loader$/);
    expect(JSON.stringify(events[0]?.exception)).toContain("Reference failure: this loader throws");
    expect(receivedTransactions(ingest.received)).toEqual([]);
  });

  test("reports a render error and a failed page-data request once each", async () => {
    await (await get(neverSampled, "/failures/render")).text();
    await (await get(neverSampled, "/failures/loader.data")).text();
    await ingest.waitFor(2);
    await settle();
    expect(receivedEvents(ingest.received)).toHaveLength(2);
    expect(receivedTransactions(ingest.received)).toEqual([]);
  });

  test("sends nothing at all when nothing failed", async () => {
    expect((await get(neverSampled, "/now")).status).toBe(200);
    await settle();
    expect(ingest.received).toEqual([]);
  });

  test("keeps the browser's trace when the browser decided not to sample it", async () => {
    await (
      await get(alwaysSampled, "/failures/loader", {
        "sentry-trace": `${TRACE_ID}-${SPAN_ID}-0`,
        "sec-fetch-site": "same-origin",
      })
    ).text();
    await ingest.waitFor(1);
    await settle();
    const events = receivedEvents(ingest.received);
    expect(events).toHaveLength(1);
    expect((events[0]?.contexts as { trace?: { trace_id?: string } })?.trace?.trace_id).toBe(TRACE_ID);
    expect(receivedTransactions(ingest.received)).toEqual([]);
  });
});

describe("a request the browser's trace samples", () => {
  test("is traced in that trace even when the Worker's own rate is 0", async () => {
    const fromOwnPage = { "sentry-trace": `${TRACE_ID}-${SPAN_ID}-1`, "sec-fetch-site": "same-origin" };
    expect((await get(neverSampled, "/now", fromOwnPage)).status).toBe(200);
    await ingest.waitFor(1);
    await settle();
    const transactions = receivedTransactions(ingest.received);
    expect(transactions).toHaveLength(1);
    expect((transactions[0]?.contexts as { trace?: { trace_id?: string } })?.trace?.trace_id).toBe(TRACE_ID);
  });
});

describe("a trace from anywhere but the app's own pages", () => {
  test.each<Record<string, string>>([{}, { "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "none" }])(
    "decides nothing: not traced at rate 0 with %o",
    async (site) => {
      const forced = { "sentry-trace": `${TRACE_ID}-${SPAN_ID}-1`, baggage: "sentry-sampled=true", ...site };
      expect((await get(neverSampled, "/failures/loader", forced)).status).toBe(500);
      await ingest.waitFor(1);
      await settle();
      expect(receivedTransactions(ingest.received)).toEqual([]);
      const [event] = receivedEvents(ingest.received);
      expect((event?.contexts as { trace?: { trace_id?: string } })?.trace?.trace_id).not.toBe(TRACE_ID);
    },
  );
});

describe("at a rate of 1", () => {
  test("every request without a trace decision of its own is traced once (not sampled twice)", async () => {
    for (let i = 0; i < 5; i++) expect((await get(alwaysSampled, "/now")).status).toBe(200);
    await ingest.waitFor(5);
    await settle();
    expect(receivedTransactions(ingest.received)).toHaveLength(5);
  });
});

describe("the browser's configuration", () => {
  // platformRootData: a document carries it, a page-data answer leaves it out (the document keeps its own),
  // so an untraced `.data` request with a DSN encodes what it would without one.
  test("is in every document and in no page-data answer", async () => {
    for (const served of [neverSampled, alwaysSampled]) {
      const document = await (await fetch(new URL("/items/ams", served.url))).text();
      expect(document).toContain(TEST_DSN);
      expect(document).toContain("tracesSampleRate");
      for (const path of ["/items/ams.data", "/now.data?_routes=root"]) {
        const data = await fetch(new URL(path, served.url));
        expect(data.status).toBe(200);
        const text = await data.text();
        expect(text).toContain('"root"');
        expect(text).not.toContain(TEST_DSN);
        expect(text).not.toContain("monitoring");
      }
    }
  });
});
