import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { BASE_SECURITY_HEADERS, NON_DOCUMENT_CSP } from "../../src/headers";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import {
  FIXTURE_BUILD_DIRECTORY,
  UNLIMITED_FOR_TESTS,
  UNLIMITED_PURGES,
} from "../../src/testing/build-under-test.ts";
import type { IngestStandIn } from "../../src/testing/ingest-stand-in.ts";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const DSN = `https://${KEY}@o4500000000000001.ingest.us.sentry.io/4500000000000002`;
const QUERY = "o=4500000000000001&p=4500000000000002&r=us";
const UPSTREAM_PATH = "/api/4500000000000002/envelope/?hsts=0";

let ingest: IngestStandIn;
let app: ServedBuild;

beforeAll(async () => {
  ({ app, ingest } = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: {
      SENTRY_DSN: DSN,
      // Short, so the time-out cases below end soon, yet long enough for a healthy forward on a loaded machine:
      // at 1 s, a plain forward answered 504 once while `npm test` ran the product's suites beside this one.
      SENTRY_TUNNEL_TIMEOUT_MS: "4000",
      // Everything else is traced: the tunnel must still send nothing of its own.
      SENTRY_TRACES_SAMPLE_RATE: "1",
    },
    // Hundreds of envelopes: the limit has its own server below.
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: UNLIMITED_PURGES,
  }));
});

afterAll(async () => {
  await app?.close();
  await ingest?.close();
});

beforeEach(() => {
  ingest.received.length = 0;
  ingest.answerWith((_, response) =>
    response.writeHead(200, { "Content-Type": "application/json" }).end("{}"),
  );
});

/** An envelope with an event item and a binary item (as replay recordings are). */
function envelope(headerFields: Record<string, unknown> = { dsn: DSN }): Uint8Array<ArrayBuffer> {
  const binary = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
  return bytes(
    Buffer.from(
      `${JSON.stringify({ event_id: "a".repeat(32), sent_at: "2026-11-21T00:00:00Z", ...headerFields })}\n`,
    ),
    Buffer.from(`${JSON.stringify({ type: "event" })}\n${JSON.stringify({ message: "hi" })}\n`),
    Buffer.from(`${JSON.stringify({ type: "replay_recording", length: binary.length })}\n`),
    binary,
    Buffer.from("\n"),
  );
}

/** Bytes backed by a plain ArrayBuffer, as fetch bodies are typed. */
function bytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat(parts));
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(new URL(path, app.url), {
    method: "POST",
    body,
    headers: { "Content-Type": "text/plain;charset=UTF-8", ...headers },
  });
}

describe("forwarding", () => {
  test.each(["/monitoring", "/monitoring/"])(
    "%s forwards the envelope byte for byte to the DSN's project",
    async (path) => {
      const body = envelope();
      const response = await post(`${path}?${QUERY}`, body);
      expect(response.status).toBe(200);
      const [received] = await ingest.waitFor(1);
      expect(received?.url).toBe(UPSTREAM_PATH);
      expect(received?.body.equals(body)).toBe(true);
      expect(received?.headers["content-type"]).toBe("text/plain;charset=UTF-8");
    },
  );

  test("a same-origin post from the browser is forwarded (Origin and Sec-Fetch-Site say so)", async () => {
    const response = await post(`/monitoring?${QUERY}`, envelope(), {
      Origin: app.url.origin,
      "Sec-Fetch-Site": "same-origin",
    });
    expect(response.status).toBe(200);
    await ingest.waitFor(1);
  });

  test("a tunnel request is not itself traced or reported: only the envelope arrives", async () => {
    await post(`/monitoring?${QUERY}`, envelope());
    await post(`/monitoring?${QUERY}`, bytes(Buffer.from("not an envelope")));
    await ingest.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 750));
    expect(ingest.received).toHaveLength(1);
    expect(ingest.received[0]?.body.includes(Buffer.from('"type":"transaction"'))).toBe(false);
  });

  test("never forwards the client's IP, cookies or credentials", async () => {
    await post(`/monitoring?${QUERY}`, envelope(), {
      "CF-Connecting-IP": "203.0.113.7",
      Cookie: "session=secret",
      Authorization: "Bearer secret",
    });
    const [received] = await ingest.waitFor(1);
    expect(received?.headers["x-forwarded-for"]).toBeUndefined();
    expect(JSON.stringify(received?.headers)).not.toContain("203.0.113.7");
    expect(received?.headers.cookie).toBeUndefined();
    expect(received?.headers.authorization).toBeUndefined();
  });

  test("passes Sentry's rate limits back to the SDK and drops its cookies and HSTS for ours", async () => {
    ingest.answerWith((_, response) =>
      response
        .writeHead(429, {
          "Retry-After": "60",
          "X-Sentry-Rate-Limits": "60:error:organization",
          "Set-Cookie": "tracking=1",
          "Strict-Transport-Security": "max-age=31536000",
          "Content-Type": "application/json",
        })
        .end('{"detail":"rate limited"}'),
    );
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(response.headers.get("x-sentry-rate-limits")).toBe("60:error:organization");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("strict-transport-security")).toBe(
      BASE_SECURITY_HEADERS["Strict-Transport-Security"],
    );
    expect(await response.text()).toBe('{"detail":"rate limited"}');
  });
});

describe("refusals (nothing is forwarded)", () => {
  test.each([
    ["a foreign Origin", { Origin: "https://evil.example" }],
    ["Origin: null", { Origin: "null" }],
    [
      "a foreign Origin, whatever Sec-Fetch-Site says",
      { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" },
    ],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "Sec-Fetch-Site": "same-site" }],
  ])("a browser's cross-site post (%s) answers 403 before anything is read", async (_, headers) => {
    const response = await post(`/monitoring?${QUERY}`, envelope(), headers);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("Forbidden: this request comes from another site.");
  });

  test.each(["GET", "PUT", "DELETE"])("%s answers 405 with Allow: POST", async (method) => {
    const response = await fetch(new URL(`/monitoring?${QUERY}`, app.url), { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  test.each([
    ["another org", "o=1&p=4500000000000002&r=us"],
    ["another project", "o=4500000000000001&p=1&r=us"],
    ["another region", "o=4500000000000001&p=4500000000000002&r=de"],
    ["no region", "o=4500000000000001&p=4500000000000002"],
    ["no query", ""],
    ["a repeated parameter", `${QUERY}&p=1`],
  ])("a query naming %s answers 403", async (_, query) => {
    expect((await post(`/monitoring?${query}`, envelope())).status).toBe(403);
  });

  test.each([
    ["another key", { dsn: DSN.replace(KEY, "f".repeat(32)) }],
    ["another project", { dsn: DSN.replace(/\d+$/, "1") }],
    ["another host", { dsn: `https://${KEY}@sentry.example.com/4500000000000002` }],
    ["no DSN", {}],
    ["a DSN that is not a string", { dsn: 42 }],
  ])("an envelope whose header has %s answers 403", async (_, headerFields) => {
    expect((await post(`/monitoring?${QUERY}`, envelope(headerFields))).status).toBe(403);
  });

  test.each([
    ["an empty body", Buffer.alloc(0)],
    ["a header that is not JSON", Buffer.from("not json\n{}")],
    ["a header that is an array", Buffer.from("[1,2]\n{}")],
    [
      "a header repeating dsn",
      Buffer.from(`{"dsn":${JSON.stringify(DSN)},"dsn":"https://k@o1.ingest.sentry.io/1"}\n{}`),
    ],
    [
      "a header repeating dsn, the repeat escaped",
      Buffer.from(`{"dsn":${JSON.stringify(DSN)},"\\u0064sn":"x"}\n{}`),
    ],
    [
      "a header repeating event_id",
      Buffer.from(`{"dsn":${JSON.stringify(DSN)},"event_id":"a","event_id":"b"}\n{}`),
    ],
    [
      "a header after a UTF-8 byte-order mark (read as sent, it is not JSON)",
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), envelope()]),
    ],
    [
      "a header that is not UTF-8",
      Buffer.concat([Buffer.from('{"dsn":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    ],
  ])("%s answers 400", async (_, body) => {
    expect((await post(`/monitoring?${QUERY}`, body)).status).toBe(400);
  });

  test("a body over 1 MiB answers 413", async () => {
    const body = bytes(envelope(), Buffer.alloc(1_048_576));
    expect((await post(`/monitoring?${QUERY}`, body)).status).toBe(413);
  });

  test("a streamed body over 1 MiB (no Content-Length) answers 413", async () => {
    const chunk = new Uint8Array(64 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 1_200_000) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(new URL(`/monitoring?${QUERY}`, app.url), {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  afterAll(() => {
    expect(ingest.received).toEqual([]);
  });
});

describe("when Sentry is unreachable", () => {
  test("no answer within the time-out answers 504", async () => {
    ingest.answerWith(() => {
      // Never answers.
    });
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(504);
  });

  test("a refused connection answers 502", async () => {
    const down = await serveBuild({
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
      // A privileged port nothing here binds: a port found free a moment before may be taken by another
      // test file's server (running at the same time) before the tunnel connects, which then answers instead.
      vars: { SENTRY_DSN: DSN, SENTRY_INGEST_TEST_ORIGIN: "http://127.0.0.1:2" },
    });
    try {
      const response = await fetch(new URL(`/monitoring?${QUERY}`, down.url), {
        method: "POST",
        body: envelope(),
      });
      expect(response.status).toBe(502);
    } finally {
      await down.close();
    }
  });
});

describe("what comes back from Sentry's side is bounded and inert", () => {
  test.each([301, 302, 307, 308])(
    "a %i is answered 502 and nothing is sent where it points",
    async (status) => {
      const elsewhere = await startHitRecorder();
      try {
        ingest.answerWith((_, response) =>
          response.writeHead(status, { Location: `${elsewhere.origin}/api/1/envelope/` }).end(),
        );
        const response = await post(`/monitoring?${QUERY}`, envelope());
        expect(response.status).toBe(502);
        expect(response.headers.get("location")).toBeNull();
        expect(ingest.received).toHaveLength(1);
        expect(elsewhere.hits).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    },
  );

  test.each([
    ["with a Content-Length", true],
    ["chunked", false],
  ])("a 10 MB answer (%s) is answered 502 without being read", async (_, declared) => {
    const tenMegabytes = Buffer.alloc(10 * 1024 * 1024, 0x61);
    ingest.answerWith((_, response) => {
      response.writeHead(200, {
        "Content-Type": "application/json",
        ...(declared && { "Content-Length": String(tenMegabytes.length) }),
      });
      response.end(tenMegabytes);
    });
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(/exceeds 65536 bytes/);
  });

  test("an endless answer is answered 502 and the rest is not read: Sentry's side sees the tunnel hang up", async () => {
    let closed: () => void = () => {};
    const hungUp = new Promise<void>((resolve) => {
      closed = resolve;
    });
    ingest.answerWith((_, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const write = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once("drain", write);
      };
      response.on("close", closed);
      write();
    });
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(502);
    await hungUp;
  });

  test("a body that drips in slower than the time-out is answered 504", async () => {
    ingest.answerWith((_, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      // One byte every 100 ms: never idle, but the whole answer would take 60 s (the time-out is 4 s).
      const timer = setInterval(() => response.write(" "), 100);
      response.on("close", () => clearInterval(timer));
      setTimeout(() => response.end("{}"), 60_000).unref();
    });
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(504);
  });

  test("an HTML answer with a script is passed on as plain text, under a policy that runs nothing", async () => {
    const page = "<!DOCTYPE html><script>alert(document.cookie)</script>";
    ingest.answerWith((_, response) =>
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page),
    );
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe(NON_DOCUMENT_CSP);
    expect(await response.text()).toBe(page);
  });

  test("a JSON answer stays JSON for the SDK", async () => {
    ingest.answerWith((_, response) =>
      response.writeHead(200, { "Content-Type": "application/json; charset=utf-8" }).end('{"id":"1"}'),
    );
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ id: "1" });
  });

  test("an empty 204 is passed on", async () => {
    ingest.answerWith((_, response) => response.writeHead(204).end());
    const response = await post(`/monitoring?${QUERY}`, envelope());
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });

  test("the tunnel's answers are never stored by shared caches", async () => {
    const forwarded = await post(`/monitoring?${QUERY}`, envelope());
    const refused = await post("/monitoring?o=1&p=1", envelope());
    expect([forwarded.status, refused.status]).toEqual([200, 403]);
    expect(forwarded.headers.get("cache-control")).toBe("private, no-store");
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
  });
});

/** A second local server that records every request (where a redirect from Sentry's side would lead). */
async function startHitRecorder() {
  const hits: string[] = [];
  const server = createServer((request, response: ServerResponse) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("when the tunnel is off", () => {
  test.each([
    ["no DSN is configured", ""],
    ["the DSN is self-hosted", `https://${KEY}@sentry.example.com/4500000000000002`],
  ])("/monitoring answers 404 when %s", async (_, dsn) => {
    const off = await serveBuild({
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
      vars: { SENTRY_DSN: dsn, SENTRY_INGEST_TEST_ORIGIN: ingest.origin },
    });
    try {
      for (const method of ["POST", "GET"]) {
        const response = await fetch(new URL(`/monitoring?${QUERY}`, off.url), {
          method,
          ...(method === "POST" && { body: envelope() }),
        });
        expect(response.status).toBe(404);
      }
      expect(ingest.received).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
