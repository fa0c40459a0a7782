import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ServedBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import { type IngestStandIn, TEST_DSN, TEST_TUNNEL_QUERY } from "../../src/testing/ingest-stand-in.ts";
import { inOneWindow } from "../../src/testing/rate-limit-window.ts";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

// The per-client limits with wrangler.toml's own bindings (MONITORING_RATE_LIMIT: 100 per 60 s,
// WRITE_RATE_LIMIT: 10 per 10 s), on the fixture app. Each describe has a server of its own: its counters
// start at zero.
const TUNNEL = { limit: 100, period: 60 };
const WRITES = { limit: 10, period: 10 };

type Served = { app: ServedBuild; ingest: IngestStandIn };

async function serve(): Promise<Served> {
  return serveWithIngest({ buildDirectory: FIXTURE_BUILD_DIRECTORY });
}

async function close(served: Served | undefined): Promise<void> {
  await served?.app.close();
  await served?.ingest.close();
}

function envelope(): string {
  return `${JSON.stringify({ dsn: TEST_DSN, event_id: "a".repeat(32) })}\n${JSON.stringify({ type: "event" })}\n{}\n`;
}

function postEnvelope(app: ServedBuild, headers: Record<string, string> = {}) {
  return fetch(new URL(`/monitoring?${TEST_TUNNEL_QUERY}`, app.url), {
    method: "POST",
    body: envelope(),
    headers: { "Content-Type": "text/plain;charset=UTF-8", ...headers },
  });
}

describe("/monitoring: envelopes per client", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(() => close(served));

  test("the first `limit` envelopes of a window are forwarded; the rest answer 429 with Retry-After, and are not", async () => {
    const { app, ingest } = served;
    await inOneWindow(TUNNEL.period, 15_000);
    const statuses: number[] = [];
    for (let index = 0; index < TUNNEL.limit + 5; index++) {
      // A client's own CF-Connecting-IP changes nothing: the local server states the socket's address, as
      // Cloudflare states the visitor's.
      const response = await postEnvelope(app, { "CF-Connecting-IP": `198.51.100.${index % 250}` });
      statuses.push(response.status);
      if (index === TUNNEL.limit) {
        expect(response.headers.get("retry-after")).toBe(String(TUNNEL.period));
        expect(await response.text()).toMatch(/send again in 60 seconds/);
      } else await response.arrayBuffer();
    }
    expect(statuses.slice(0, TUNNEL.limit)).toEqual(Array(TUNNEL.limit).fill(200));
    expect(statuses.slice(TUNNEL.limit)).toEqual(Array(5).fill(429));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(ingest.received).toHaveLength(TUNNEL.limit);
  });
});

function postMessage(app: ServedBuild, path: string, fields: Record<string, string>) {
  return fetch(new URL(path, app.url), {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

describe("writes per client", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(() => close(served));

  test("past the limit, a document post answers 429 with Retry-After and a page that keeps what was typed", async () => {
    const { app } = served;
    await inOneWindow(WRITES.period, 4_000);
    for (let index = 0; index < WRITES.limit; index++) {
      const response = await postMessage(app, "/messages", { name: "Ada", text: `post ${index}` });
      expect(response.status).toBe(303);
    }
    const refused = await postMessage(app, "/messages", { name: "Grace <b>", text: "Typed & kept" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(WRITES.period));
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await refused.text();
    expect(page).toContain('value="Grace &lt;b&gt;"');
    expect(page).toContain(">Typed &amp; kept</textarea>");
    expect(page).toContain("send again in 10 seconds");

    // A client-side <Form> or fetcher submission posts for page data: the same refusal, as the action's data.
    const data = await postMessage(app, "/messages.data", { name: "Grace", text: "From the browser" });
    expect(data.status).toBe(429);
    expect(data.headers.get("retry-after")).toBe(String(WRITES.period));
    const body = await data.text();
    expect(body).toContain('"writeLimited"');
    expect(body).toContain('"From the browser"');
  });
});

describe("a route's writeLimit export", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(() => close(served));

  test('"off": the route\'s writes are not limited by the platform, and do not count against the default', async () => {
    const { app } = served;
    await inOneWindow(WRITES.period, 4_000);
    for (let index = 0; index < WRITES.limit * 2; index++) {
      const response = await postMessage(app, "/notes", { note: `note ${index}` });
      expect(response.status).toBe(303);
    }
    const response = await postMessage(app, "/messages", { name: "Ada", text: "still within the limit" });
    expect(response.status).toBe(303);
  });
});
