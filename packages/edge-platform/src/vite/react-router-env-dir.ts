/**
 * React Router 7 (@react-router/dev 7.18.4, the last 7.x) creates its internal Vite servers (the loaders of
 * react-router.config.ts, the child compiler that reads route modules) with `envFile: false`, an option
 * Vite 8 deprecated for `envDir: false`, which means the same (read no `.env` file). Vite then prints "The
 * `envFile` option is deprecated, please use `envDir: false` instead." for each server, three to five
 * times per `npm run build` or `npm run dev`, and in a terminal clears the screen for each repeat: a warning
 * nobody working on this project can act on. React Router 8 passes `envDir: false` instead
 * (remix-run/react-router#15230); this is that change, made to React Router 7's code as Node loads it
 * (runReactRouterCli, react-router-cli.ts, which scripts/react-router.ts runs). A Vite plugin could
 * rewrite the option only in the child compiler: the other servers run no plugin.
 *
 * Nothing else changes. Once React Router passes `envDir` itself there is nothing to replace, and
 * packages/edge-platform/tests/unit/react-router-env-dir.test.ts says the CLI wrapper can go.
 */
const DEPRECATED_OPTION = "envFile: false";
const REPLACEMENT = "envDir: false";

/** Whether a module URL is one of @react-router/dev's built files (`packageUrl` ends with a slash). */
export function isReactRouterDevModule(url: string, packageUrl: string): boolean {
  return url.startsWith(`${packageUrl}dist/`) && url.endsWith(".js");
}

/** The module's source with `envDir: false` wherever it passed `envFile: false` to Vite. */
export function withEnvDir(source: string): string {
  return source.replaceAll(DEPRECATED_OPTION, REPLACEMENT);
}
