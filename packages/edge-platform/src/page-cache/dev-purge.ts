/**
 * `npm run dev` only: the request header in which the dev server's Workers Cache emulation tells the Worker
 * where to send purges (an address of the dev server with a secret path, packages/edge-platform/src/vite/dev-workers-cache.ts).
 * The dev server sets it on every request it passes on and drops any a client sent.
 */
export const DEV_WORKERS_CACHE_PURGE_HEADER = "x-edge-platform-dev-cache-purge";
