// The Worker (wrangler.toml's `main`): the platform's request pipeline (node_modules/edge-platform/docs/ARCHITECTURE.md), which renders
// this app's routes through React Router, and the entrypoint its shared pages are cached in front of
// (node_modules/edge-platform/docs/caching.md).
export { default, SharedPages } from "edge-platform/worker";
