import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { rawHead, rawRequest } from "../../src/testing/raw-http.ts";
import { fixtureWrites } from "./support/fixture-writes.ts";

// Bad headers : a clear 4xx or the normal page, never a 500; a refused post stores nothing (the fixture's
// /messages logs each post it accepts: fixtureWrites counts them).

let app: ServedBuild;
const errorLogs: WorkerdStructuredLog[] = [];
const writes = fixtureWrites();

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: (log) => {
      if (log.level === "error") errorLogs.push(log);
      writes.onLog(log);
    },
  });
});

afterAll(async () => {
  await app?.close();
  expect(errorLogs.map((log) => log.message)).toEqual([]);
});

function get(target: string, lines: string[]) {
  return rawRequest(app.url, rawHead("GET", target, app.url, lines));
}

const FORM = "submissionId=0b5bd5a6-6d8e-4a4c-9d7e-1f2a3b4c5d6e&name=Ada&text=headers";

/** A form post from the app's own origin with the given extra header lines. */
function postForm(lines: string[], body = FORM) {
  return rawRequest(
    app.url,
    rawHead("POST", "/messages", app.url, [
      `Origin: ${app.url.origin}`,
      `Content-Length: ${body.length}`,
      ...lines,
    ]),
    body,
  );
}

describe("cookies and other large headers", () => {
  test.each([16_000, 64_000, 256_000])("a %i-byte cookie is ignored: the page renders", async (size) => {
    const response = await get("/now", [`Cookie: session=${"x".repeat(size)}`]);
    expect(response.status).toBe(200);
    expect(response.body).toContain("<h1>Now</h1>");
  });

  test("a 1 MB header is refused by the runtime with 431 before the Worker runs, and the next request is served", async () => {
    // fetch(): a raw socket can lose the answer to the reset that follows it.
    const response = await fetch(new URL("/now", app.url), {
      headers: { "X-Padding": "x".repeat(1_000_000) },
    });
    expect(response.status).toBe(431);
    expect((await get("/now", [])).status).toBe(200);
  });

  test("a hundred extra headers are ignored", async () => {
    const lines = Array.from({ length: 100 }, (_, index) => `X-Extra-${index}: ${index}`);
    expect((await get("/now", lines)).status).toBe(200);
  });
});

describe("Accept", () => {
  test.each([
    ["garbage with control characters", "\u0001\u007f;;;q=abc, */*;q=-1"],
    ["JSON only", "application/json"],
    ["nothing acceptable", "image/webp;q=1, text/html;q=0"],
    ["empty", ""],
  ])("%s: the page is still HTML, 200", async (_, accept) => {
    const response = await get("/items/ams", [`Accept: ${accept}`]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

describe("Content-Type on a post", () => {
  test.each([
    ["bogus", "x/\u0001bogus"],
    ["text/plain", "text/plain"],
    ["JSON", "application/json"],
    ["a parameter only", "; charset=utf-8"],
  ])("%s answers 415 with the accepted types, nothing stored", async (_, type) => {
    const before = await writes.settled();
    const response = await postForm([`Content-Type: ${type}`]);
    expect(response.status).toBe(415);
    expect(response.body).toContain("application/x-www-form-urlencoded or multipart/form-data");
    expect(await writes.settled()).toBe(before);
  });

  test("none at all answers 415, nothing stored", async () => {
    const before = await writes.settled();
    expect((await postForm([])).status).toBe(415);
    expect(await writes.settled()).toBe(before);
  });

  test("multipart without a boundary answers 400, nothing stored", async () => {
    const before = await writes.settled();
    expect((await postForm(["Content-Type: multipart/form-data"])).status).toBe(400);
    expect(await writes.settled()).toBe(before);
  });
});

describe("methods", () => {
  test.each(["PUT", "PATCH", "DELETE"])(
    "%s to the /messages action answers 405 with Allow: POST, nothing stored",
    async (method) => {
      const before = await writes.settled();
      const response = await rawRequest(
        app.url,
        rawHead(method, "/messages", app.url, [
          `Origin: ${app.url.origin}`,
          "Content-Type: application/x-www-form-urlencoded",
          `Content-Length: ${FORM.length}`,
        ]),
        FORM,
      );
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await writes.settled()).toBe(before);
    },
  );
});

describe("Host, Origin and the request line", () => {
  test.each([
    ["HTTP/1.1 without Host", "GET /now HTTP/1.1\r\nConnection: close\r\n\r\n"],
    ["HTTP/1.0 without Host", "GET /now HTTP/1.0\r\n\r\n"],
    ["a garbage request line", "GARBAGE\r\n\r\n"],
  ])("%s is refused with 400 by the runtime", async (_, head) => {
    expect((await rawRequest(app.url, head)).status).toBe(400);
  });

  test.each([
    ["garbage", "\u0001garbage"],
    ["another site", "https://evil.example"],
    ["null", "null"],
  ])("a post with Origin %s answers 403, nothing stored", async (_, origin) => {
    const before = await writes.settled();
    const body = FORM;
    const response = await rawRequest(
      app.url,
      rawHead("POST", "/messages", app.url, [
        `Origin: ${origin}`,
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${body.length}`,
      ]),
      body,
    );
    expect(response.status).toBe(403);
    expect(await writes.settled()).toBe(before);
  });

  test("an invalid Content-Length is refused with 400 by the runtime, nothing stored", async () => {
    const before = await writes.settled();
    const head = rawHead("POST", "/messages", app.url, [
      `Origin: ${app.url.origin}`,
      "Content-Type: application/x-www-form-urlencoded",
      "Content-Length: abc",
    ]);
    expect((await rawRequest(app.url, head, FORM)).status).toBe(400);
    expect(await writes.settled()).toBe(before);
  });

  test("Content-Length with chunked encoding: the chunked framing wins (RFC 9112), the form is read once", async () => {
    const before = await writes.settled();
    const head = rawHead("POST", "/messages", app.url, [
      `Origin: ${app.url.origin}`,
      "Content-Type: application/x-www-form-urlencoded",
      "Content-Length: 3",
      "Transfer-Encoding: chunked",
    ]);
    expect(
      (await rawRequest(app.url, head, `${FORM.length.toString(16)}\r\n${FORM}\r\n0\r\n\r\n`)).status,
    ).toBe(303);
    expect(await writes.settled()).toBe(before + 1);
  });
});
