import type { MessageFields } from "./messages";

export type Message = { id: number; name: string; text: string; createdAt: string };

/** How many messages the page lists, newest first. */
export const MESSAGES_SHOWN = 50;

export async function latestMessages(db: D1Database): Promise<Message[]> {
  const { results } = await db
    .prepare("SELECT id, name, text, created_at AS createdAt FROM messages ORDER BY id DESC LIMIT ?")
    .bind(MESSAGES_SHOWN)
    .all<Message>();
  return results;
}

/** Stores a message once per submission id: a repeated submission changes nothing. One statement, atomic. */
export async function saveMessage(
  db: D1Database,
  submissionId: string,
  message: MessageFields,
): Promise<void> {
  await db
    .prepare(
      "INSERT INTO messages (submission_id, name, text) VALUES (?, ?, ?) ON CONFLICT (submission_id) DO NOTHING",
    )
    .bind(submissionId, message.name, message.text)
    .run();
}
