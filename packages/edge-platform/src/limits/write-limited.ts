import { fillText, platformTexts } from "../visitor/texts";

/**
 * What an action answers when its client has sent too many writes (write-limits.server.ts): status 429,
 * `Retry-After`, and this as the action's data, so the route's page keeps what was typed and says when to
 * send again, after a plain form post and a client-side submission alike. Shared by server and browser.
 */
export type WriteLimited = {
  writeLimited: { retryAfterSeconds: number; message: string };
  /** The posted form's text fields, by name (the first value of a repeated name); files are left out. */
  values: Record<string, string>;
};

/** Whether an action's data is the platform's refusal of a write over the limit. */
export function isWriteLimited(actionData: unknown): actionData is WriteLimited {
  return typeof actionData === "object" && actionData !== null && "writeLimited" in actionData;
}

/** The sentence a refused visitor reads, in their language (English unless a locale is given). */
export function writeLimitedMessage(retryAfterSeconds: number, locale = "en"): string {
  return fillText(platformTexts(locale).writeLimited, { seconds: retryAfterSeconds });
}
