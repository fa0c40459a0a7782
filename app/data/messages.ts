/**
 * The rules of the reference /messages form, shared by the server (the authority) and the browser (which
 * shows the same messages before sending). Lengths count characters, as the database's CHECKs do.
 */
export const MESSAGE_LIMITS = { name: 50, text: 500 } as const;

export type MessageFields = { name: string; text: string };
export type MessageErrors = Partial<Record<keyof MessageFields, string>>;
export type MessageValidation =
  | { ok: true; message: MessageFields }
  | { ok: false; errors: MessageErrors; values: MessageFields };

/**
 * Control characters are never typed, and SQLite's length() stops at a NUL, so the table's CHECK would
 * refuse a value that passed here (found by tests/worker/fuzz.test.ts). Messages may keep line breaks
 * and tabs.
 */
const CONTROL_CHARACTERS = /\p{Cc}/u;
const CONTROL_CHARACTERS_EXCEPT_LINES = /(?![\t\n\r])\p{Cc}/u;
const CONTROL_CHARACTERS_ERROR = "Remove the control characters.";

export function validateMessage(input: { name?: unknown; text?: unknown }): MessageValidation {
  const values = { name: asText(input.name), text: asText(input.text) };
  const message = { name: values.name.trim(), text: values.text.trim() };
  const errors: MessageErrors = {};
  const nameLength = characters(message.name);
  if (nameLength === 0) errors.name = "Enter your name.";
  else if (nameLength > MESSAGE_LIMITS.name)
    errors.name = `Use at most ${MESSAGE_LIMITS.name} characters (${nameLength} now).`;
  else if (CONTROL_CHARACTERS.test(message.name)) errors.name = CONTROL_CHARACTERS_ERROR;
  const textLength = characters(message.text);
  if (textLength === 0) errors.text = "Write a message.";
  else if (textLength > MESSAGE_LIMITS.text)
    errors.text = `Use at most ${MESSAGE_LIMITS.text} characters (${textLength} now).`;
  else if (CONTROL_CHARACTERS_EXCEPT_LINES.test(message.text)) errors.text = CONTROL_CHARACTERS_ERROR;
  return Object.keys(errors).length > 0 ? { ok: false, errors, values } : { ok: true, message };
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
