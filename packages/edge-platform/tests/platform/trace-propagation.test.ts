import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { ServedBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import { type IngestStandIn, receivedTransactions } from "../../src/testing/ingest-stand-in.ts";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

// A trace goes where it should and nowhere else: not to third parties a loader calls (unless configured),
// never built from a URL's values, and from a traced document into the browser's page load.

type Transaction = { transaction?: string; contexts?: { trace?: { trace_id?: string; op?: string } } };

let thirdParty: Server;
let thirdPartyOrigin: string;
const thirdPartyHeaders: IncomingHttpHeaders[] = [];
const served: { app: ServedBuild; ingest: IngestStandIn }[] = [];
let byDefault: { app: ServedBuild; ingest: IngestStandIn };
let configured: { app: ServedBuild; ingest: IngestStandIn };
let untraced: { app: ServedBuild; ingest: IngestStandIn };

beforeAll(async () => {
  thirdParty = createServer((request, response) => {
    thirdPartyHeaders.push(request.headers);
    response.end("{}");
  });
  await new Promise<void>((resolve) => thirdParty.listen(0, "127.0.0.1", resolve));
  const address = thirdParty.address();
  thirdPartyOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  byDefault = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "1" },
  });
  configured = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "1", SENTRY_TRACE_PROPAGATION_ORIGINS: thirdPartyOrigin },
  });
  untraced = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "0", SENTRY_TRACE_PROPAGATION_ORIGINS: thirdPartyOrigin },
  });
  served.push(byDefault, configured, untraced);
});

afterAll(async () => {
  for (const { app, ingest } of served) {
    await app.close();
    await ingest.close();
  }
  await new Promise((resolve) => thirdParty?.close(resolve));
});

beforeEach(() => {
  thirdPartyHeaders.length = 0;
  for (const { ingest } of served) ingest.received.length = 0;
});

async function load({ app }: { app: ServedBuild }, path: string): Promise<string> {
  const response = await fetch(new URL(path, app.url), { redirect: "manual" });
  return response.text();
}

describe("a loader's request to another origin", () => {
  test("carries no trace headers by default, on a traced request", async () => {
    await load(byDefault, `/failures/outgoing-fetch?to=${encodeURIComponent(thirdPartyOrigin)}`);
    await byDefault.ingest.waitFor(1);
    expect(thirdPartyHeaders).toHaveLength(1);
    expect(thirdPartyHeaders[0]?.["sentry-trace"]).toBeUndefined();
    expect(thirdPartyHeaders[0]?.baggage).toBeUndefined();
    expect(thirdPartyHeaders[0]?.traceparent).toBeUndefined();
  });

  test("carries the trace to an origin the configuration names, with the route and no URL value", async () => {
    const to = encodeURIComponent(thirdPartyOrigin);
    await load(configured, `/failures/outgoing-fetch?to=${to}&email=someone%40example.com`);
    expect(thirdPartyHeaders).toHaveLength(1);
    expect(thirdPartyHeaders[0]?.["sentry-trace"]).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}-1$/);
    const baggage = String(thirdPartyHeaders[0]?.baggage);
    expect(baggage).toContain("sentry-transaction=GET%20%2Ffailures%2Foutgoing-fetch");
    expect(baggage).not.toMatch(/email|someone|example\.com|127\.0\.0\.1/);
  });

  test("carries none from a request that is not traced, even to a configured origin", async () => {
    await load(untraced, `/failures/outgoing-fetch?to=${encodeURIComponent(thirdPartyOrigin)}`);
    expect(thirdPartyHeaders).toHaveLength(1);
    expect(thirdPartyHeaders[0]?.["sentry-trace"]).toBeUndefined();
    expect(thirdPartyHeaders[0]?.baggage).toBeUndefined();
    expect(await load(untraced, "/now")).not.toContain('name="sentry-trace"');
  });
});

describe("a document's trace", () => {
  test("a traced document carries it in its HTML, for the browser's page load to continue", async () => {
    const html = await load(byDefault, "/now");
    const [, traceId] = /<meta name="sentry-trace" content="([0-9a-f]{32})-[0-9a-f]{16}-1"/.exec(html) ?? [];
    expect(traceId).toBeDefined();
    expect(html).toMatch(/<meta name="baggage" content="[^"]*sentry-trace_id=/);
    // This document's transaction, by the trace its HTML names: an earlier test's traced request may still
    // deliver its own while this one runs.
    const own = () =>
      (receivedTransactions(byDefault.ingest.received) as Transaction[]).find(
        (transaction) => transaction.contexts?.trace?.trace_id === traceId,
      );
    await expect.poll(own, { timeout: 10_000 }).toBeDefined();
    expect(own()?.transaction).toBe("GET /now");
  });

  test("a page a shared cache may store carries none", async () => {
    const html = await load(byDefault, "/slow/cached");
    expect(html).toContain("<h1>Slow</h1>");
    expect(html).not.toContain('name="sentry-trace"');
    expect(html).not.toContain('name="baggage"');
  });
});
