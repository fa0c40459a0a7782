import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readFormData } from "../../src/http/form-data.server.ts";

// Property-based checks of form reading (readFormData, edge-platform/server): thousands of generated inputs each
// run; fast-check prints the seed and the shrunk input of any failure.

const RUNS = { numRuns: 3_000 };
const LIMITS = { maxBytes: 16 * 1024, timeoutMs: 1_000 };
const URL = "https://app.example/form";
/** Text as a browser can send it: any Unicode scalar values (no lone surrogates). */
const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });

/** A refusal from readFormData: React Router's data() with a 4xx status and a plain message. */
function refusal(error: unknown): { status: number; message: unknown } | undefined {
  const thrown = error as { type?: string; init?: { status?: number }; data?: unknown };
  return thrown?.type === "DataWithResponseInit"
    ? { status: thrown.init?.status ?? 0, message: thrown.data }
    : undefined;
}

describe("readFormData", () => {
  test("arbitrary bytes under any form type: a form or a 4xx with a message, never another error", async () => {
    const type = fc.constantFrom(
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=b",
      "multipart/form-data",
      "text/plain",
      "",
    );
    await fc.assert(
      fc.asyncProperty(type, fc.uint8Array({ maxLength: 1_024 }), async (contentType, body) => {
        const request = new Request(URL, { method: "POST", headers: { "Content-Type": contentType }, body });
        try {
          expect(await readFormData(request, LIMITS)).toBeInstanceOf(FormData);
        } catch (error) {
          const refused = refusal(error);
          expect(refused?.status).toBeOneOf([400, 415]);
          expect(refused?.message).toMatch(/^(Bad Request|Unsupported Media Type): /);
        }
      }),
      RUNS,
    );
  });

  test("any urlencoded form a browser sends reads back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text(20), text(200)), { maxLength: 6 }), async (fields) => {
        const body = new URLSearchParams(fields);
        const form = await readFormData(new Request(URL, { method: "POST", body }), LIMITS);
        expect([...form.entries()]).toEqual(fields);
      }),
      RUNS,
    );
  });

  test("any multipart form a browser sends reads back exactly", async () => {
    // Node's multipart parser (undici), which runs this test, drops a U+FEFF that starts a field's name; workerd,
    // where readFormData runs, keeps it (workerd-form-data.test.ts). Such names are left to that test.
    const name = text(20).filter((candidate) => !candidate.startsWith("\ufeff"));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, text(200)), { maxLength: 6 }), async (fields) => {
        const sent = new FormData();
        for (const [name, value] of fields) sent.append(name, value);
        const form = await readFormData(new Request(URL, { method: "POST", body: sent }), LIMITS);
        // Multipart normalises line breaks in values to CRLF (the HTML form encoding rule).
        const normalised = fields.map(([name, value]) => [
          name.replace(/\r\n|\r|\n/g, "\r\n"),
          value.replace(/\r\n|\r|\n/g, "\r\n"),
        ]);
        expect([...form.entries()]).toEqual(normalised);
      }),
      { numRuns: 1_000 },
    );
  });

  test("bytes that are not UTF-8 are refused, not replaced", async () => {
    const invalid = fc.constantFrom(
      [0xff],
      [0xc3, 0x28],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88],
    );
    await fc.assert(
      fc.asyncProperty(text(50), invalid, text(50), async (before, bad, after) => {
        const body = new Uint8Array([
          ...new TextEncoder().encode(`text=${encodeURIComponent(before)}`),
          ...bad,
          ...new TextEncoder().encode(encodeURIComponent(after)),
        ]);
        const request = new Request(URL, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body,
        });
        const error = await readFormData(request, LIMITS).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(refusal(error)).toEqual({ status: 400, message: "Bad Request: the form is not valid UTF-8." });
      }),
      RUNS,
    );
  });
});
