import { registerHooks } from "node:module";

/**
 * Changes the source of the modules `matches` picks as Node loads them, for every import and require in this
 * process from now on (a module already loaded is not loaded again). The platform's changes to its tools' code,
 * each with a test that says when it can go: React Router's `envDir` (vite/react-router-env-dir.ts) and
 * Miniflare's arena growth (local-server/miniflare-arena-growth.ts).
 */
export function rewriteOnLoad(matches: (url: string) => boolean, rewrite: (source: string) => string): void {
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!matches(url) || loaded.source == null) return loaded;
      const source =
        typeof loaded.source === "string" ? loaded.source : new TextDecoder().decode(loaded.source);
      return { ...loaded, source: rewrite(source) };
    },
  });
}
