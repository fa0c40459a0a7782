// The Worker (wrangler.toml's `main`): the platform's request pipeline (packages/edge-platform/docs/ARCHITECTURE.md), which renders
// this app's routes through React Router.
export { default } from "edge-platform/worker";
