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

/** The sentence a refused visitor reads. */
export function writeLimitedMessage(retryAfterSeconds: number): string {
  return (
    "Too many posts from your connection in a short time, so this one was not sent. " +
    `Your text is still here: send again in ${retryAfterSeconds} seconds.`
  );
}
