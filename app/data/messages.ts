import { hasDirectionOverrides, isInvisible } from "edge-platform/shared";
import * as v from "valibot";

/**
 * The rules of the reference /messages form, shared by the server (the authority) and the browser (which
 * shows the same messages before sending), written with the schema library the platform's configuration
 * uses (valibot). Lengths count characters, as the database's CHECKs do.
 */
export const MESSAGE_LIMITS = { name: 50, text: 500 } as const;

export type MessageFields = { name: string; text: string };
export type MessageErrors = Partial<Record<keyof MessageFields, string>>;
export type MessageValidation =
  | { ok: true; message: MessageFields }
  | { ok: false; errors: MessageErrors; values: MessageFields };

/**
 * Control characters are never typed, and SQLite's length() stops at a NUL, so the table's CHECK would
 * refuse a value that passed here (found by tests/worker/reference/fuzz.test.ts). Messages may keep line breaks
 * and tabs.
 */
const CONTROL_CHARACTERS = /\p{Cc}/u;
const CONTROL_CHARACTERS_EXCEPT_LINES = /(?![\t\n\r])\p{Cc}/u;
const CONTROL_CHARACTERS_ERROR = "Remove the control characters.";
/** Other visitors read these fields: text that shows nothing, or reorders the page, is refused (user-text.ts). */
const DIRECTION_OVERRIDES_ERROR = "Remove the characters that change the direction of the text.";
const INVISIBLE_ERROR = "only has characters that do not show. Use letters, digits or symbols.";

/** One field's rule: trimmed, not empty, visible, at most `max` characters, none of the `forbidden` ones. */
function field(label: string, required: string, max: number, forbidden: RegExp) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(required),
    v.check((value) => !isInvisible(value), `The ${label} ${INVISIBLE_ERROR}`),
    v.check(
      (value) => characters(value) <= max,
      (issue) => `Use at most ${max} characters (${characters(String(issue.input))} now).`,
    ),
    v.check((value) => !forbidden.test(value), CONTROL_CHARACTERS_ERROR),
    v.check((value) => !hasDirectionOverrides(value), DIRECTION_OVERRIDES_ERROR),
  );
}

const MessageSchema = v.object({
  name: field("name", "Enter your name.", MESSAGE_LIMITS.name, CONTROL_CHARACTERS),
  text: field("message", "Write a message.", MESSAGE_LIMITS.text, CONTROL_CHARACTERS_EXCEPT_LINES),
});

export function validateMessage(input: { name?: unknown; text?: unknown }): MessageValidation {
  const values = { name: asText(input.name), text: asText(input.text) };
  // The first problem of each field is the one shown.
  const result = v.safeParse(MessageSchema, values, { abortPipeEarly: true });
  if (result.success) return { ok: true, message: result.output };
  const { nested = {} } = v.flatten<typeof MessageSchema>(result.issues);
  const errors: MessageErrors = {};
  if (nested.name?.[0]) errors.name = nested.name[0];
  if (nested.text?.[0]) errors.text = nested.text[0];
  return { ok: false, errors, values };
}

/** Each form render's id; the table stores a submission id once. */
export function isSubmissionId(value: unknown): value is string {
  return (
    typeof value === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)
  );
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function characters(value: string): number {
  return [...value].length;
}

/** The edge page cache's tag of pages that list messages: posting one purges it (routes/messages-latest.tsx). */
export const MESSAGES_CACHE_TAG = "messages";
