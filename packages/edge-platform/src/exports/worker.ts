/**
 * `edge-platform/worker`: the Worker (wrangler.toml's `main` re-exports both, workers/app.ts): the default
 * entrypoint, and `SharedPages`, the entrypoint that Workers Cache stands in front of (docs/caching.md).
 */

/** The bindings the platform's Worker reads (it adds them to the deploy config), and what a Worker is handed. */
export type { PlatformEnv, WorkerEnv } from "../platform-env.ts";
export { default, SharedPages } from "../worker/app.ts";
