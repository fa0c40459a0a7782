/**
 * `edge-platform/worker`: the Worker (wrangler.toml's `main` re-exports both, workers/app.ts): the default
 * entrypoint, and `SharedPages`, the entrypoint that Workers Cache stands in front of (docs/caching.md).
 */
export { default, SharedPages } from "../worker/app.ts";
