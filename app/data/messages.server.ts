import type { MessageFields } from "./messages";

export type Message = { id: number; name: string; text: string; createdAt: string };

/** Where messages are read and written: the binding or, for read-your-writes, a D1 session. */
type Database = Pick<D1Database, "prepare" | "batch">;

/** How many messages the page lists, newest first. */
export const MESSAGES_SHOWN = 50;

export async function latestMessages(db: Database): Promise<Message[]> {
  const { results } = await db
    .prepare("SELECT id, name, text, created_at AS createdAt FROM messages ORDER BY id DESC LIMIT ?")
    .bind(MESSAGES_SHOWN)
    .all<Message>();
  return results;
}

/**
 * - `stored`: the message is new;
 * - `already-stored`: this submission id already holds this very message (a double click, a resend);
 * - `id-taken`: this submission id already holds another message, which stays; this one was not stored.
 */
export type SaveOutcome = "stored" | "already-stored" | "id-taken";

/**
 * Stores a message once per submission id, and never drops a different message silently: a form
 * re-posted after Back, or served from a cache to several people, carries an id that is already taken.
 * One round trip, one transaction: the insert, then the row that holds the id (ours, or the one that was
 * there first), so two concurrent posts with one id cannot both be told they were stored.
 */
export async function saveMessage(
  db: Database,
  submissionId: string,
  message: MessageFields,
): Promise<SaveOutcome> {
  const [insert, holder] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        "INSERT INTO messages (submission_id, name, text) VALUES (?, ?, ?) ON CONFLICT (submission_id) DO NOTHING RETURNING id",
      )
      .bind(submissionId, message.name, message.text),
    db.prepare("SELECT name, text FROM messages WHERE submission_id = ?").bind(submissionId),
  ]);
  const stored = holder?.results[0];
  // The values arrive trimmed (validateMessage), as they were stored: equal means the same message.
  if (stored?.name !== message.name || stored?.text !== message.text) return "id-taken";
  return (insert?.results.length ?? 0) > 0 ? "stored" : "already-stored";
}
