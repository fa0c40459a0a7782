/**
 * `edge-platform/react-router-cli` (Node): React Router's CLI as the product's npm scripts run it
 * (scripts/react-router.ts), without the deprecation warning React Router 7 causes in Vite 8.
 */
export { runReactRouterCli } from "../vite/react-router-cli.ts";
