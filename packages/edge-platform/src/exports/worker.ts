/** `edge-platform/worker`: the Worker (wrangler.toml's `main` re-exports it, workers/app.ts). */
export { default } from "../worker/app.ts";
