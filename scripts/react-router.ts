/**
 * `node scripts/react-router.ts dev | build | typegen [options]`: React Router's CLI (`react-router ...`),
 * as `npm run dev`, `npm run build` and `npm run typegen` run it. The platform runs it with one change:
 * React Router 7's internal Vite servers get `envDir: false` instead of the `envFile: false` Vite 8
 * deprecated, so no build or dev start prints that warning (packages/edge-platform/src/vite/react-router-env-dir.ts).
 * `npx react-router ...` still works; it prints the warning.
 */
import { runReactRouterCli } from "edge-platform/react-router-cli";

runReactRouterCli();
