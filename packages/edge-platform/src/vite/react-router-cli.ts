import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { growMiniflareArenasGeometrically } from "../local-server/miniflare-arena-growth.ts";
import { rewriteOnLoad } from "../rewrite-on-load.ts";
import { isReactRouterDevModule, withEnvDir } from "./react-router-env-dir.ts";

/**
 * Runs React Router's own CLI (`react-router dev`, `build`, `typegen` from @react-router/dev: the same
 * commands and options, read from process.argv) with React Router 7's internal Vite servers given
 * `envDir: false` in place of the deprecated `envFile: false` (react-router-env-dir.ts): without it every
 * build and dev start prints Vite's deprecation warning three to five times. The change is made as Node
 * loads React Router's code, so it is in place before the CLI's first line runs, which no Vite plugin is. The
 * Miniflare that @cloudflare/vite-plugin starts (the dev server's Worker, the build's pre-rendering) grows its
 * configuration's arena geometrically here too (../local-server/miniflare-arena-growth.ts).
 */
export function runReactRouterCli(): void {
  const require = createRequire(import.meta.url);
  const packageDirectory = dirname(require.resolve("@react-router/dev/package.json"));
  const packageUrl = pathToFileURL(`${packageDirectory}/`).href;
  rewriteOnLoad((url) => isReactRouterDevModule(url, packageUrl), withEnvDir);
  growMiniflareArenasGeometrically();
  // React Router's bin (not among the package's exports, hence its path): it reads the command from
  // process.argv, which is the caller's.
  require(join(packageDirectory, "bin.js"));
}
