import { matchRoutes, type RouteObject } from "react-router";

/** A route of the app's route config (`app/routes.ts`), as far as matching a path needs it. */
export type RouteConfigLike = {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  children?: RouteConfigLike[];
};

/**
 * The routes that serve static pages (contract C5), computed at build time from the product's pre-rendered
 * paths: the browser learns "static" per route, so what it downloads grows with the number of routes,
 * not of pages. A path that matches no route fails the build.
 */
export function staticRouteIds(routes: readonly RouteConfigLike[], staticPaths: readonly string[]): string[] {
  const matchable = toMatchable(routes);
  const ids = new Set<string>();
  for (const path of staticPaths) {
    const leaf = matchRoutes(matchable, path)?.at(-1);
    if (!leaf) throw new Error(`Static page ${path} matches no route of app/routes.ts`);
    if (leaf.route.id) ids.add(leaf.route.id);
  }
  return [...ids].sort();
}

/** React Router's route ids: the id given, else the module path without its extension. */
function toMatchable(routes: readonly RouteConfigLike[]): RouteObject[] {
  return routes.map((route): RouteObject => {
    const id = route.id ?? route.file.replace(/\.[^/.]+$/, "");
    return route.index
      ? { id, path: route.path, index: true }
      : { id, path: route.path, ...(route.children && { children: toMatchable(route.children) }) };
  });
}
