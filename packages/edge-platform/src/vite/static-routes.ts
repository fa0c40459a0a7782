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

/** Cloudflare's limits on `assets.run_worker_first`: rules, and characters per rule. */
export const ROUTING_RULES_MAX = 100;
const ROUTING_RULE_MAX_CHARS = 100;

/**
 * The `assets.run_worker_first` rules that send static pages' HTML to the Worker, which serves the asset
 * with the page's policy (packages/edge-platform/src/worker/static-pages.ts, packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md): one
 * rule per static route, not per page, so 10,000 pages of one route are one rule. A route's path becomes
 * a glob (`*` matches any characters, `/` included) from its first dynamic segment on. No negative rule
 * (`!/*.data`): Cloudflare serves what those match from the assets only, so the page data of dynamic
 * pages would be 404. A glob therefore also sends its pages' `.data` to the Worker, which serves the asset
 * unchanged. Past Cloudflare's limits the build fails.
 */
export function staticPageRoutingRules(
  routes: readonly RouteConfigLike[],
  staticPaths: readonly string[],
): string[] {
  const matchable = toMatchable(routes);
  const globs = new Set<string>();
  for (const path of staticPaths) {
    const matches = matchRoutes(matchable, path);
    if (!matches) throw new Error(`Static page ${path} matches no route of app/routes.ts`);
    globs.add(routeGlob(matches.map((match) => match.route.path ?? "")));
  }
  // Cloudflare refuses a rule that a `*` rule already covers.
  const rules = [...globs]
    .filter(
      (glob) =>
        ![...globs].some(
          (other) => other !== glob && other.endsWith("*") && glob.startsWith(other.slice(0, -1)),
        ),
    )
    .sort();
  if (rules.length > ROUTING_RULES_MAX)
    throw new Error(
      `${rules.length} run_worker_first rules (one per static route) exceed Cloudflare's limit of ${ROUTING_RULES_MAX}`,
    );
  const long = rules.find((rule) => rule.length >= ROUTING_RULE_MAX_CHARS);
  if (long) throw new Error(`The run_worker_first rule ${long} is longer than Cloudflare reads`);
  return rules;
}

/** `/glossary/:slug` -> `/glossary/*`: everything from the first segment that is not literal on. */
function routeGlob(routePaths: readonly string[]): string {
  const segments = routePaths.flatMap((path) => path.split("/")).filter(Boolean);
  const literal: string[] = [];
  for (const segment of segments) {
    if (segment.startsWith(":") || segment.includes("*") || segment.endsWith("?"))
      return `/${[...literal, "*"].join("/")}`;
    literal.push(segment);
  }
  return `/${literal.join("/")}`;
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
