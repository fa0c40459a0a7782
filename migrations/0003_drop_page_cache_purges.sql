-- Shared pages moved to Cloudflare's Workers Cache and its own purge (packages/edge-platform/docs/decisions/024-workers-cache.md):
-- the purge store of decision 017 is no longer read or written.
DROP TABLE IF EXISTS page_cache_purges;
