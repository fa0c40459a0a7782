/**
 * Workers Cache's purge (`ctx.cache.purge`), or the local emulation's (the local server's
 * `WORKERS_CACHE_EMULATION` binding), as the request carries it (request-context.ts) and purgePages uses it.
 */
export type CachePurger = (options: { tags: string[] }) => Promise<{ success: boolean; errors: unknown[] }>;
