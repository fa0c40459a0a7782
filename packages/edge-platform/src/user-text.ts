/**
 * Rules for text a visitor types that other visitors will read (a name, a message), so that it cannot reorder
 * or hide what is around it (found by probing: packages/edge-platform/docs/decisions/019-probe-findings.md). Pure functions, shared
 * by a product's validation in the browser and on the server; showing the text isolated (`<bdi>`,
 * `dir="auto"`) is the other half, done where user text meets page text.
 */

/**
 * Embeddings, overrides and isolates (U+202A-202E, U+2066-2069): a name ending in U+202E (right-to-left
 * override) reversed the text after it. Nobody types them by accident, so they are refused. The marks
 * (U+200E, U+200F, U+061C) are kept: right-to-left writers use them to place punctuation, and they only move
 * neutral characters next to them, which the isolation of the rendered text keeps inside it.
 */
const DIRECTION_OVERRIDES = /[\u202A-\u202E\u2066-\u2069]/u;

export function hasDirectionOverrides(value: string): boolean {
  return DIRECTION_OVERRIDES.test(value);
}

/**
 * What renders as nothing: white space, the default-ignorable code points (zero-width space and joiners,
 * U+FEFF, the Hangul fillers U+3164 and U+FFA0, variation selectors, tag characters, the bidi marks),
 * other format and control characters, and the Braille blank (U+2800), which is drawn as an empty cell.
 */
const INVISIBLE = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\u2800]*$/u;

/** Whether the text shows nothing at all (a name of U+3164 alone was stored and showed blank). */
export function isInvisible(value: string): boolean {
  return INVISIBLE.test(value);
}
