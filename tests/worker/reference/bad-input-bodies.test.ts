import type { ServedBuild } from "edge-platform/local-server";
import { REQUEST_BODY_TIMEOUT_MS } from "edge-platform/shared";
import {
  type IngestStandIn,
  rawHead,
  rawRequest,
  serveWithIngest,
  UNLIMITED_FOR_TESTS,
  UNLIMITED_PURGES,
} from "edge-platform/testing";
import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedMessageCount } from "../../support/reference/messages-db.ts";

// Bad bodies posted to the reference /messages action. Each case answers a clear 4xx, stores nothing and
// reports nothing; none reaches the server-error path. The /monitoring tunnel's are the platform's
// (packages/edge-platform/tests/platform/tunnel-bodies.test.ts).

let ingest: IngestStandIn;
let app: ServedBuild;
const errorLogs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  // Reporting on, tracing off: the stand-in must receive neither a forwarded envelope nor an error report.
  ({ app, ingest } = await serveWithIngest({
    vars: { SENTRY_TRACES_SAMPLE_RATE: "0" },
    // Dozens of posts in a few seconds: each must reach the reader it tests, not the limit.
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

const SUBMISSION = "submissionId=6c1f4f0e-8a43-4b5e-9a51-3f7d2c1b0a99";

/** Posts `body` to /messages from the app's own origin, byte for byte. */
async function postMessage(type: string, body: Uint8Array | string, extraLines: string[] = []) {
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  const head = rawHead("POST", "/messages", app.url, [
    `Origin: ${app.url.origin}`,
    `Content-Type: ${type}`,
    ...(extraLines.some((line) => line.startsWith("Content-Length")) ? [] : [`Content-Length: ${length}`]),
    ...extraLines,
  ]);
  return rawRequest(app.url, head, body);
}

const URLENCODED = "application/x-www-form-urlencoded";
const bytes = (...parts: (string | number[] | Uint8Array)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("forms posted to /messages", () => {
  test.each([
    [
      "invalid UTF-8 bytes",
      bytes(`${SUBMISSION}&name=Ada&text=`, [0xff, 0xfe, 0xc3, 0x28]),
      400,
      /not valid UTF-8/,
    ],
    ["percent-escapes that are not UTF-8", `${SUBMISSION}&name=Ada&text=%FF%FE`, 400, /could not be read/],
    ["percent-escapes that are not escapes", `${SUBMISSION}&name=%ZZ&text=hi`, 400, /could not be read/],
    ["an overlong UTF-8 slash", `${SUBMISSION}&name=Ada&text=%C0%AF`, 400, /could not be read/],
    ["no fields at all", "", 400, /out of date|required|Write/i],
    ["only separators", "&&&===&", 400, /out of date|required|Write/i],
  ])("%s: the expected 4xx with a message, nothing stored", async (_, body, status, message) => {
    const before = await storedMessageCount(app);
    const response = await postMessage(URLENCODED, body);
    expect(response.status).toBe(status);
    expect(response.body).toMatch(message);
    expect(await storedMessageCount(app)).toBe(before);
  });

  // Through fetch(): the Worker answers before reading the whole body, and a raw socket can lose that
  // answer to the reset that follows it.
  test.each([
    ["declared (Content-Length)", (body: string) => body],
    [
      "streamed (no Content-Length)",
      (body: string) => new Blob([body]).stream() as ReadableStream<Uint8Array<ArrayBuffer>>,
    ],
  ])("a body over 16 KiB, %s, answers 413 with a message, nothing stored", async (_, asBody) => {
    const before = await storedMessageCount(app);
    const response = await fetch(new URL("/messages", app.url), {
      method: "POST",
      headers: { Origin: app.url.origin, "Content-Type": URLENCODED },
      body: asBody(`${SUBMISSION}&name=A&text=${"x".repeat(20_000)}`),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("Payload Too Large");
    expect(await storedMessageCount(app)).toBe(before);
  });

  const MULTIPART = "multipart/form-data; boundary=b";
  const part = (name: string, value: string | number[]) =>
    bytes(`--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`, value, "\r\n");

  test.each([
    [
      "truncated in a value",
      bytes(part("name", "Ada"), '--b\r\nContent-Disposition: form-data; name="text"\r\n\r\nHel'),
    ],
    ["without its closing boundary", bytes(part("name", "Ada"), part("text", "hi"))],
    ["with another boundary", bytes(part("name", "Ada").toString().replaceAll("--b", "--c"), "--c--\r\n")],
    ["with invalid UTF-8 in a value", bytes(part("name", "Ada"), part("text", [0xff, 0xfe]), "--b--\r\n")],
  ])("a multipart form %s answers 400, nothing stored", async (_, body) => {
    const before = await storedMessageCount(app);
    const response = await postMessage(MULTIPART, body);
    expect(response.status).toBe(400);
    expect(await storedMessageCount(app)).toBe(before);
  });

  test(
    "a body that stops short of its Content-Length answers 408 once the body time-out passes, nothing stored",
    async () => {
      const before = await storedMessageCount(app);
      const response = await postMessage(URLENCODED, `${SUBMISSION}&name=Ada&text=`, ["Content-Length: 500"]);
      expect(response.status).toBe(408);
      expect(response.body).toContain("Request Timeout");
      expect(await storedMessageCount(app)).toBe(before);
    },
    REQUEST_BODY_TIMEOUT_MS + 10_000,
  );
});
