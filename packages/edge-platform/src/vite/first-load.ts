/** What the first-load rule reads of a module of the browser build's graph (Rollup's `ModuleInfo`). */
export type ModuleInfoLike = { isEntry: boolean; importedIds: readonly string[] } | null;

/** The client entry's file, whichever the app has or React Router's default (`entry.client.tsx`). */
const CLIENT_ENTRY = /[\\/]entry\.client\.[cm]?[jt]sx?$/;

/**
 * The root route's module of the app in `appDirectory`: `root.tsx` (or .ts, .jsx, .js), React Router's name.
 * React Router's browser build enters each route through a query (`?__react-router-build-client-route`).
 */
function isRootRoute(id: string, appDirectory: string): boolean {
  const path = id.split("?")[0] ?? id;
  return path.startsWith(appDirectory) && /^[\\/]root\.[cm]?[jt]sx?$/.test(path.slice(appDirectory.length));
}

/**
 * The modules every page loads: the client entry, the root route (React Router loads it on every page) and
 * everything they import statically, the platform's own modules and the product's layout included. Code
 * loaded through `import()` (the navigation code, the Sentry SDK, the other routes) stays out, so the
 * rule names no file: it follows the app's graph, whatever the product's root imports. The entry modules
 * themselves stay out too: each keeps its own file, which the route manifest names.
 */
export function firstLoadModules(
  appDirectory: string,
  moduleIds: Iterable<string>,
  moduleInfo: (id: string) => ModuleInfoLike,
): Set<string> {
  const roots = [...moduleIds].filter(
    (id) => moduleInfo(id)?.isEntry && (CLIENT_ENTRY.test(id) || isRootRoute(id, appDirectory)),
  );
  const found = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    pending.push(...(moduleInfo(id)?.importedIds ?? []));
  }
  for (const root of roots) found.delete(root);
  return found;
}
