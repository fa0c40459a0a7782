import type { ServedBuild } from "edge-platform/local-server";

/** How many messages the served Worker's D1 database holds (tests assert that refusals store nothing). */
export async function storedMessageCount(served: ServedBuild): Promise<number> {
  const db = await served.miniflare.getD1Database("DB");
  return (await db.prepare("SELECT count(*) AS n FROM messages").first<{ n: number }>())?.n ?? -1;
}
