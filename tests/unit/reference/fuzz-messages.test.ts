import { hasDirectionOverrides, isInvisible } from "edge-platform/shared";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MESSAGE_LIMITS, validateMessage } from "../../../app/data/messages";

// Property-based checks of the reference's /messages rules (readFormData's are the platform's:
// packages/edge-platform/tests/unit/fuzz-read-form-data.test.ts): thousands of generated
// inputs each run; fast-check prints the seed and the shrunk input of any failure.

const RUNS = { numRuns: 3_000 };
const codePoints = (value: string) => [...value].length;
/** Text as a browser can send it: any Unicode scalar values (no lone surrogates). */
const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });

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
