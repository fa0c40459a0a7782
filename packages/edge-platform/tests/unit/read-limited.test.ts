import { describe, expect, test } from "vitest";
import { readLimited, readLimitedBody } from "../../src/http/read-limited-body";

// One bounded body read (packages/edge-platform/src/http/read-limited-body.ts) for request bodies (forms, the tunnel's
// envelopes) and Sentry's answers to the tunnel alike.

const bytes = (text: string) => new TextEncoder().encode(text);

function streamOf(chunks: string[], end: "close" | "stall" | "error" = "close"): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(bytes(chunk));
      if (end === "close") controller.close();
      if (end === "error") controller.error(new TypeError("connection reset"));
    },
  });
}

const limits = (maxBytes: number, timeoutMs = 5_000) => ({
  maxBytes,
  signal: AbortSignal.timeout(timeoutMs),
});

describe("readLimited", () => {
  test("reads a body within the limit to its end", async () => {
    const read = await readLimited(streamOf(["ab", "cd"]), null, limits(4));
    expect(read.ok && new TextDecoder().decode(read.body)).toBe("abcd");
  });

  test("no body is an empty one", async () => {
    expect(await readLimited(null, null, limits(4))).toEqual({ ok: true, body: new Uint8Array() });
  });

  test("a declared length over the limit is refused unread", async () => {
    expect(await readLimited(streamOf(["ab"]), "5", limits(4))).toEqual({ ok: false, failure: "too large" });
  });

  test("a streamed body over the limit is refused, whatever it declared", async () => {
    expect(await readLimited(streamOf(["abc", "de"]), "3", limits(4))).toEqual({
      ok: false,
      failure: "too large",
    });
  });

  test("a body that stalls is given up at the deadline", async () => {
    expect(await readLimited(streamOf(["ab"], "stall"), null, limits(100, 30))).toEqual({
      ok: false,
      failure: "aborted",
    });
  });

  test("a body that breaks off is unreadable", async () => {
    expect(await readLimited(streamOf(["ab"], "error"), null, limits(100))).toEqual({
      ok: false,
      failure: "unreadable",
    });
  });
});

describe("readLimitedBody (a request's body, as the status to answer)", () => {
  const post = (body: ReadableStream<Uint8Array>) =>
    new Request("http://127.0.0.1/messages", { method: "POST", body, duplex: "half" } as RequestInit);

  test.each([
    ["too large: 413", streamOf(["abcde"]), 413],
    ["stalled: 408", streamOf(["ab"], "stall"), 408],
    ["broken off: 400", streamOf(["ab"], "error"), 400],
  ] as const)("%s", async (_, body, status) => {
    const read = await readLimitedBody(post(body), { maxBytes: 4, timeoutMs: 30 });
    expect(read.ok ? 200 : read.status).toBe(status);
  });
});
