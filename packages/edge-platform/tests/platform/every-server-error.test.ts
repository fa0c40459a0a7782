import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import {
  type IngestStandIn,
  receivedEvents,
  receivedTransactions,
  startIngestStandIn,
} from "../../src/testing/ingest-stand-in.ts";
import { reportingVars } from "../../src/testing/serve-with-ingest.ts";

// packages/edge-platform/docs/reporting.md, "What a team gets for each kind of failure": every server error is logged and reported
// for every request it breaks, including errors after the Response exists, whether or not the request is
// traced (rate 1: all are; rate 0: none is). Each test counts only what its own requests caused: a request
// of an earlier test that timed out may still log and report while the next one runs.

type ServerErrorLine = {
  digest: string;
  path: string;
  route?: string;
  request_id: string;
  error: { message: string };
};

let ingest: IngestStandIn;
const served: Record<string, ServedBuild> = {};
let logs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  ingest = await startIngestStandIn();
  for (const rate of ["0", "1"]) {
    served[rate] = await serveBuild({
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
      vars: reportingVars(ingest, { SENTRY_TRACES_SAMPLE_RATE: rate }),
      onLog: (log) => logs.push(log),
    });
  }
});

afterAll(async () => {
  for (const app of Object.values(served)) await app.close();
  await ingest?.close();
});

/** The ids of this test's own requests: the log lines name them (`request_id`, from `cf-ray`). */
let ownRequests = new Set<string>();

beforeEach(() => {
  ingest.received.length = 0;
  logs = [];
  ownRequests = new Set();
});

/**
 * A browser's request (streamed, not a crawler's whole document), read to its end, with an id of its own in
 * `cf-ray` (Cloudflare's request id, which the log lines carry).
 */
async function load(app: ServedBuild, path: string) {
  const id = `test-${crypto.randomUUID()}`;
  ownRequests.add(id);
  const response = await fetch(new URL(path, app.url), {
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36", "cf-ray": id },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.text() };
}

/** This test's requests' log lines of the given event. */
function ownLines(event: string): ServerErrorLine[] {
  return logs
    .filter((log) => log.message.includes(`"event":"${event}"`))
    .map((log) => JSON.parse(log.message) as ServerErrorLine)
    .filter((line) => ownRequests.has(line.request_id));
}

function serverErrorLines(): ServerErrorLine[] {
  return ownLines("server_error");
}

/** Error events of this test's requests: those carrying the digest of one of their log lines. */
function ownEvents() {
  const digests = new Set(serverErrorLines().map((line) => line.digest));
  return receivedEvents(ingest.received).filter((event) =>
    digests.has((event.tags as { digest?: string } | undefined)?.digest ?? ""),
  );
}

/** Waits for `count` error events, then a little longer for strays (reports go out after the response). */
async function errorEvents(count: number) {
  const deadline = Date.now() + 10_000;
  while (ownEvents().length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await new Promise((resolve) => setTimeout(resolve, 750));
  return ownEvents();
}

describe.each(["1", "0"])("at SENTRY_TRACES_SAMPLE_RATE %s", (rate) => {
  test("a streamed promise that rejects is logged with its route and reported, and the page shows none of it", async () => {
    const { status, body } = await load(served[rate] as ServedBuild, "/failures/streamed");
    expect(status).toBe(200);
    expect(body).not.toContain("Reference failure");
    const events = await errorEvents(1);
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ path: "/failures/streamed", route: "/failures/streamed" });
    expect(lines[0]?.error.message).toContain("this streamed promise rejects");
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: lines[0]?.digest });
  });

  test("a component that throws inside Suspense after the shell is logged and reported once", async () => {
    const { status, body } = await load(served[rate] as ServedBuild, "/failures/suspense");
    expect(status).toBe(200);
    expect(body).not.toContain("Reference failure");
    const events = await errorEvents(1);
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.error.message).toContain("throws inside Suspense");
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: lines[0]?.digest });
  });

  test("work the request left running with waitUntil is logged and reported when it fails", async () => {
    const { status } = await load(served[rate] as ServedBuild, "/failures/wait-until");
    expect(status).toBe(200);
    const events = await errorEvents(1);
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.error.message).toContain("work after the response fails");
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: lines[0]?.digest });
  });

  test("a server error's event is unhandled and named by its route pattern, with environment and release", async () => {
    await load(served[rate] as ServedBuild, "/items/ams");
    await load(served[rate] as ServedBuild, "/failures/loader?email=someone%40example.com");
    const [event, ...others] = await errorEvents(1);
    expect(others).toEqual([]);
    const exception = (event?.exception as { values?: { mechanism?: unknown }[] } | undefined)?.values?.at(
      -1,
    );
    expect(exception?.mechanism).toEqual({ type: "auto.http.cloudflare", handled: false });
    expect(event?.transaction).toBe("GET /failures/loader");
    expect(event?.tags).toMatchObject({ route: "/failures/loader", digest: serverErrorLines()[0]?.digest });
    expect(event?.environment).toBe("production");
    expect(event?.release).toEqual(expect.any(String));
  });

  test("a render error is logged and reported once, with the digest its page shows", async () => {
    const { status, body } = await load(served[rate] as ServedBuild, "/failures/render");
    expect(status).toBe(500);
    const events = await errorEvents(1);
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(body).toMatch(new RegExp(`Digest: (?:<!-- -->)?${lines[0]?.digest}<`));
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: lines[0]?.digest });
  });

  test("the page data request of a failing loader is logged and reported once", async () => {
    const { status } = await load(served[rate] as ServedBuild, "/failures/loader.data");
    expect(status).toBe(500);
    const events = await errorEvents(1);
    expect(serverErrorLines()).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: serverErrorLines()[0]?.digest });
  });

  test("a route whose headers export throws is logged and reported once, with the digest its page shows", async () => {
    const { status, body } = await load(served[rate] as ServedBuild, "/failures/headers");
    expect(status).toBe(500);
    const events = await errorEvents(1);
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(body).toContain(lines[0]?.digest);
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: lines[0]?.digest, route: "/failures/headers" });
  });

  test("a 5xx a route answers itself is logged and sends no error event", async () => {
    const { status } = await load(served[rate] as ServedBuild, "/failures/status");
    expect(status).toBe(503);
    await errorEvents(0);
    const routes = receivedEvents(ingest.received).map(
      (event) => (event.tags as { route?: string } | undefined)?.route,
    );
    expect(routes).not.toContain("/failures/status");
    expect(serverErrorLines()).toEqual([]);
    expect(ownLines("server_error_status")).toHaveLength(1);
  });

  test("one error object that breaks three requests is logged and reported three times", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await load(served[rate] as ServedBuild, "/failures/shared")).status).toBe(500);
    }
    const events = await errorEvents(3);
    const lines = serverErrorLines();
    expect(lines).toHaveLength(3);
    expect(new Set(lines.map((line) => line.digest)).size).toBe(1);
    expect(events).toHaveLength(3);
    for (const event of events) expect(event.tags).toMatchObject({ digest: lines[0]?.digest });
  });
});

test("one failure has one digest, traced or not: a loader's at rates 1 and 0, a throwing headers' document and page data", async () => {
  await load(served["1"] as ServedBuild, "/failures/loader");
  await load(served["0"] as ServedBuild, "/failures/loader");
  await load(served["1"] as ServedBuild, "/failures/headers");
  await load(served["1"] as ServedBuild, "/failures/headers.data");
  await expect.poll(() => serverErrorLines().length, { timeout: 10_000 }).toBe(4);
  const digests = (path: string) =>
    new Set(
      serverErrorLines()
        .filter((line) => line.route === path)
        .map((line) => line.digest),
    );
  expect(digests("/failures/loader").size).toBe(1);
  expect(digests("/failures/headers").size).toBe(1);
});

test("a traced request's error event belongs to the request's trace", async () => {
  await load(served["1"] as ServedBuild, "/failures/loader");
  const [event] = await errorEvents(1);
  type Report = {
    contexts?: { trace?: { trace_id?: string; span_id?: string; parent_span_id?: string } };
    spans?: { span_id?: string }[];
  };
  const trace = (report: unknown) => (report as Report | undefined)?.contexts?.trace;
  expect(trace(event)?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  // The request's own transaction: the one holding the span the error was captured in (the event's parent
  // span). An earlier test's traced request may still deliver its transaction while this one runs; it holds
  // no span of this event.
  const spanId = trace(event)?.parent_span_id;
  const own = () =>
    receivedTransactions(ingest.received).find(
      (transaction) =>
        trace(transaction)?.span_id === spanId ||
        (transaction as Report).spans?.some((span) => span.span_id === spanId),
    );
  await expect.poll(own, { timeout: 10_000 }).toBeDefined();
  expect(trace(event)?.trace_id).toBe(trace(own())?.trace_id);
});
