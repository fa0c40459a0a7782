import { createCookie, type RouterContextProvider } from "react-router";
import { PAGE_CACHE_PURGE_CHECK_MS, PAGE_CACHE_PURGE_MARKER_MAX_AGE_SECONDS } from "../constants";
import { getRequestPlatform } from "../request-context";
import { cacheTags, pagePathOf, purgeTargets } from "./policy";

/**
 * Purge on write (docs/decisions/017-edge-page-cache.md). The purge store is a D1 table of the latest purge
 * time per tag and per page path: one write reaches every data center, because every check reads it from
 * D1's primary (no replica lag). An isolate trusts what it read for PAGE_CACHE_PURGE_CHECK_MS, so a hit
 * costs a D1 read at most once a second per page; a purge made in the isolate forgets at once.
 */

type PurgeStore = Pick<D1Database, "prepare" | "batch">;

/** Latest purge per set of targets, as read by this isolate; bounded like the static pages' policies. */
const MAX_REMEMBERED = 1_000;
const remembered = new Map<string, { latest: number | undefined; readAt: number }>();

/**
 * The writer's marker: the time of their purge, in a short-lived cookie. A request carrying it is never
 * served a copy from before it, whichever isolate or data center answers (read-your-writes).
 */
const purgeMarker = createCookie("page-cache-purged", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: PAGE_CACHE_PURGE_MARKER_MAX_AGE_SECONDS,
});

export type PurgeTargets = { tags?: readonly string[]; paths?: readonly string[] };

/**
 * Purges cached pages by tag and by path (a page's path purges its `.data` too), for every data center.
 * Returns the headers the action's response must carry: the writer's marker cookie.
 */
export async function purgePages(
  context: Readonly<RouterContextProvider>,
  { tags = [], paths = [] }: PurgeTargets,
): Promise<Headers> {
  const { env } = getRequestPlatform(context);
  const purgedAt = await recordPurge(env.DB, { tags, paths }, Date.now());
  const headers = new Headers();
  headers.append("Set-Cookie", await purgeMarker.serialize(purgedAt));
  return headers;
}

/** Writes the purge: each target's time moves forward only (two purges in one ms keep the later). */
export async function recordPurge(
  db: PurgeStore,
  { tags = [], paths = [] }: PurgeTargets,
  now: number,
): Promise<number> {
  const checkedTags = cacheTags(tags.join(","));
  if (!checkedTags) throw new Error(`Cannot purge tags ${JSON.stringify(tags)}: not cache tags.`);
  const targets = [
    ...paths.map((path) => `path:${pagePathOf(path)}`),
    ...checkedTags.map((tag) => `tag:${tag}`),
  ];
  if (targets.length > 0) {
    await db.batch(
      targets.map((target) =>
        db
          .prepare(
            "INSERT INTO page_cache_purges (target, purged_at) VALUES (?, ?) " +
              "ON CONFLICT (target) DO UPDATE SET purged_at = max(purged_at, excluded.purged_at)",
          )
          .bind(target, now),
      ),
    );
  }
  remembered.clear();
  return now;
}

/** The latest purge of a page's path or tags (ms), from this isolate's memory when recent enough. */
export async function latestPurge(
  db: PurgeStore,
  pathname: string,
  tags: readonly string[],
  now: number,
): Promise<number | undefined> {
  const targets = purgeTargets(pathname, tags);
  const memoKey = targets.join("\n");
  const known = remembered.get(memoKey);
  if (known && now - known.readAt < PAGE_CACHE_PURGE_CHECK_MS) return known.latest;
  const row = await db
    .prepare(
      `SELECT max(purged_at) AS latest FROM page_cache_purges WHERE target IN (${targets.map(() => "?").join(", ")})`,
    )
    .bind(...targets)
    .first<{ latest: number | null }>();
  const latest = row?.latest ?? undefined;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(memoKey, { latest, readAt: now });
  return latest;
}

/** The writer's purge time from their marker cookie, when they carry a valid one. */
export async function readPurgeMarker(request: Request): Promise<number | undefined> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("page-cache-purged=")) return undefined;
  const value: unknown = await purgeMarker.parse(header);
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
