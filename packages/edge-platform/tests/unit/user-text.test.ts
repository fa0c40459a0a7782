import { describe, expect, test } from "vitest";
import { hasDirectionOverrides, isInvisible } from "../../src/user-text";

describe("isInvisible (text that shows nothing)", () => {
  test.each([
    ["the Hangul filler the probe stored", "\u3164"],
    ["zero-width spaces the probe stored", "\u200B\u200B"],
    ["a byte order mark", "\uFEFF"],
    ["joiners and a word joiner", "\u200C\u200D\u2060"],
    ["the halfwidth Hangul filler and the choseong/jungseong fillers", "\uFFA0\u115F\u1160"],
    ["a soft hyphen and a combining grapheme joiner", "\u00AD\u034F"],
    ["a variation selector and a tag character", "\uFE0F\u{E0041}"],
    ["the bidi marks", "\u200E\u200F\u061C"],
    ["the Braille blank", "\u2800"],
    ["spaces of several widths", " \u00A0\u2003\u3000"],
    ["nothing", ""],
  ])("%s", (_, value) => {
    expect(isInvisible(value)).toBe(true);
  });

  test.each([
    ["a Latin name", "Ada"],
    ["Hebrew with a right-to-left mark", "שלום\u200F!"],
    ["an emoji joined with ZWJ", "👩\u200D💻"],
    ["Thai with a zero-width space between words", "สวัสดี\u200Bครับ"],
    ["a Hangul syllable", "한"],
    ["a single dot among fillers", "\u3164.\u3164"],
  ])("%s is visible", (_, value) => {
    expect(isInvisible(value)).toBe(false);
  });
});

describe("hasDirectionOverrides (controls that reorder the text after them)", () => {
  test.each([
    ["right-to-left override, as the probe's name ended", "Eve\u202E"],
    ["left-to-right override", "\u202Dabc"],
    ["embeddings and their pop", "\u202Aa\u202Bb\u202C"],
    ["isolates", "\u2066a\u2067b\u2068c\u2069"],
  ])("%s", (_, value) => {
    expect(hasDirectionOverrides(value)).toBe(true);
  });

  test("the marks that place punctuation in right-to-left text are no overrides", () => {
    expect(hasDirectionOverrides("\u200E\u200F\u061C")).toBe(false);
    expect(hasDirectionOverrides("مرحبا\u061C!")).toBe(false);
  });
});
