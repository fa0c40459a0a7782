-- The edge page cache's purge store (packages/edge-platform/docs/decisions/017-edge-page-cache.md): the latest purge of each tag
-- (`tag:messages`) and page path (`path:/messages/latest`), in ms since the epoch. A cached copy rendered at
-- or before the latest purge of its path or one of its tags is never served.
CREATE TABLE page_cache_purges (
  target TEXT PRIMARY KEY,
  purged_at INTEGER NOT NULL
);
