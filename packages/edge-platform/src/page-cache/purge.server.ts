import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "../request-context";
import { cacheTags, pathTag } from "./policy";

/**
 * Purge on write (packages/edge-platform/docs/caching.md, packages/edge-platform/docs/decisions/024-workers-cache.md): through Workers Cache's own purge
 * (`ctx.cache.purge`), by the route's tags and by the tag every shared answer of a page carries (its path).
 * Cloudflare propagates it with Instant Purge, as zone purges; it limits purges (its free tier's rate, whatever
 * the plan), and answers `success: false` beyond that rather than throwing.
 */

export type PurgeTargets = { tags?: readonly string[]; paths?: readonly string[] };

/** What a write's purge achieved; `purged` is false when nothing could be purged (or there is no cache). */
export type PagePurge = {
  purged: boolean;
  /**
   * Where to send the writer afterwards (a redirect's `Location`): the path itself when the purge took effect, otherwise the path with
   * a `fresh` query parameter of its own, a URL no stored copy answers (the cache keys by the whole URL), so
   * the writer reads their write whatever the edge still holds for others until the copies expire.
   */
  location(path: string): string;
};

/** The name of the `fresh` query parameter (PagePurge.location). */
export const FRESH_PARAMETER = "fresh";

/**
 * Purges the shared copies of pages by tag and by path (a page's path purges its `.data` too), everywhere.
 * A failed purge is logged, never thrown: the write it follows is stored, and the copies expire by
 * themselves within the route's `s-maxage` and `stale-while-revalidate`.
 */
export async function purgePages(
  context: Readonly<RouterContextProvider>,
  { tags = [], paths = [] }: PurgeTargets,
): Promise<PagePurge> {
  const checkedTags = cacheTags(tags.join(","));
  if (!checkedTags) throw new Error(`Cannot purge tags ${JSON.stringify(tags)}: not cache tags.`);
  const all = [...checkedTags, ...paths.map(pathTag)];
  const purger = getRequestContext(context).cachePurger;
  // Without a cache in front of the Worker (`npm run dev`, a deployment without Workers Cache) nothing is
  // stored, so nothing needs purging.
  let purged = true;
  if (all.length > 0 && purger) {
    try {
      const result = await purger({ tags: all });
      purged = result.success;
      if (!purged) logPurgeFailure(all, result.errors);
    } catch (error) {
      // The purge could not even be asked (the cache's API threw): as good as refused.
      purged = false;
      logPurgeFailure(all, [String(error)]);
    }
  }
  const freshness = Date.now().toString(36);
  return {
    purged,
    location: (path) => (purged ? path : withParameter(path, FRESH_PARAMETER, freshness)),
  };
}

function logPurgeFailure(tags: string[], errors: unknown[]): void {
  console.error(JSON.stringify({ level: "error", event: "page_cache_purge_failed", tags, errors }));
}

function withParameter(path: string, name: string, value: string): string {
  const url = new URL(path, "http://path.invalid");
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}
