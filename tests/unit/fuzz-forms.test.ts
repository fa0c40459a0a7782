import { readFormData } from "edge-platform/server";
import { hasDirectionOverrides, isInvisible } from "edge-platform/shared";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MESSAGE_LIMITS, validateMessage } from "../../app/data/messages";

// Property-based checks  of form reading and the /messages rules: thousands of generated
// inputs each run; fast-check prints the seed and the shrunk input of any failure.

const RUNS = { numRuns: 3_000 };
const LIMITS = { maxBytes: 16 * 1024, timeoutMs: 1_000 };
const URL = "https://app.example/messages";
const codePoints = (value: string) => [...value].length;
/** Text as a browser can send it: any Unicode scalar values (no lone surrogates). */
const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });

/** A refusal from readFormData: React Router's data() with a 4xx status and a plain message. */
function refusal(error: unknown): { status: number; message: unknown } | undefined {
  const thrown = error as { type?: string; init?: { status?: number }; data?: unknown };
  return thrown?.type === "DataWithResponseInit"
    ? { status: thrown.init?.status ?? 0, message: thrown.data }
    : undefined;
}

describe("validateMessage", () => {
  test("never throws, whatever the fields hold, and its verdict follows the limits", () => {
    fc.assert(
      fc.property(fc.oneof(text(600), fc.anything()), fc.oneof(text(600), fc.anything()), (name, body) => {
        const result = validateMessage({ name, text: body });
        const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : "");
        const fits = (value: string, limit: number) => codePoints(value) >= 1 && codePoints(value) <= limit;
        // Control characters are refused; a message may keep tabs and line breaks.
        const control = (value: string, allowed: string) =>
          [...value].some((character) => {
            const code = character.codePointAt(0) ?? 0;
            return (code < 0x20 || (code >= 0x7f && code < 0xa0)) && !allowed.includes(character);
          });
        // Text that shows nothing or changes the direction of what follows is refused (packages/edge-platform/docs/security.md,
        // "User text").
        const readable = (value: string) => !isInvisible(value) && !hasDirectionOverrides(value);
        const nameOk =
          fits(trimmed(name), MESSAGE_LIMITS.name) && !control(trimmed(name), "") && readable(trimmed(name));
        const textOk =
          fits(trimmed(body), MESSAGE_LIMITS.text) &&
          !control(trimmed(body), "\t\n\r") &&
          readable(trimmed(body));
        expect(result.ok).toBe(nameOk && textOk);
        if (result.ok) {
          expect(result.message).toEqual({ name: trimmed(name), text: trimmed(body) });
        } else {
          expect(Object.keys(result.errors).sort()).toEqual(
            [...(nameOk ? [] : ["name"]), ...(textOk ? [] : ["text"])].sort(),
          );
          // What was typed comes back as typed, so the form can show it again.
          expect(result.values).toEqual({
            name: typeof name === "string" ? name : "",
            text: typeof body === "string" ? body : "",
          });
        }
      }),
      RUNS,
    );
  });
});

describe("validateMessage: user text cannot hide or reorder what is around it", () => {
  /** Characters that render as nothing (the probe stored names of U+3164 and of U+200B). */
  const invisible = fc.constantFrom(
    ..."\u3164\u200B\uFEFF\u200C\u200D\u2060\u00AD\u034F\u180E\u115F\u1160\uFFA0\u2800\uFE0F",
    ..."\u200E\u200F\u061C \u00A0\u3000\u2003",
    "\u{E0020}",
    "\u{1D173}",
  );
  const invisibleOnly = (maxLength: number) =>
    fc.array(invisible, { minLength: 1, maxLength }).map((characters) => characters.join(""));
  const override = fc.constantFrom(..."\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069");
  /** Readable text in several scripts, with invisible characters mixed in. */
  const readable = (maxLength: number) =>
    fc
      .tuple(
        fc.constantFrom("a", "Z", "7", "é", "文", "😀", "ا", "א", "한", "ñ"),
        fc.array(fc.oneof(invisible, fc.constantFrom("b", "ש", "字", "-", ".")), {
          maxLength: maxLength - 1,
        }),
        fc.nat(),
      )
      .map(([visible, rest, at]) => {
        const position = at % (rest.length + 1);
        return [...rest.slice(0, position), visible, ...rest.slice(position)].join("");
      });

  test("a name or message made only of invisible characters is refused, with the typed values kept", () => {
    fc.assert(
      fc.property(invisibleOnly(50), readable(50), fc.boolean(), (blank, other, blankName) => {
        const fields = blankName ? { name: blank, text: other } : { name: other, text: blank };
        const result = validateMessage(fields);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const field = blankName ? "name" : "text";
        // Blank after trimming is "empty"; otherwise the message says the characters do not show.
        expect(result.errors[field]).toMatch(
          /^(Enter your name\.|Write a message\.|The (name|message) only has characters that do not show\.)/,
        );
        expect(result.values).toEqual(fields);
      }),
      RUNS,
    );
  });

  test("readable text with invisible characters mixed in is accepted as typed (after trimming)", () => {
    fc.assert(
      fc.property(readable(50), readable(500), (name, text) => {
        const result = validateMessage({ name, text });
        expect(result).toEqual({ ok: true, message: { name: name.trim(), text: text.trim() } });
      }),
      RUNS,
    );
  });

  test("a direction override or isolate anywhere in either field is refused", () => {
    fc.assert(
      fc.property(readable(40), override, fc.nat(), fc.boolean(), (valid, control, at, inName) => {
        const characters = [...valid];
        characters.splice(at % (characters.length + 1), 0, control);
        const changed = characters.join("");
        const result = validateMessage(
          inName ? { name: changed, text: valid } : { name: valid, text: changed },
        );
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.errors).toEqual({
          [inName ? "name" : "text"]: "Remove the characters that change the direction of the text.",
        });
      }),
      RUNS,
    );
  });
});

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
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text(20), text(200)), { maxLength: 6 }), async (fields) => {
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
