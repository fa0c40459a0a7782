import type { UNSAFE_AssetsManifest as AssetsManifest } from "react-router";
import { type DataRouter, matchRoutes } from "react-router";
import { routeAssets } from "./react-router-adapter";

/**
 * What a navigation to a URL needs that the page has not loaded yet (packages/edge-platform/docs/contract.md C5), and the deepest route it
 * matches (which tells whether the page is static).
 */
export type RoutePlan = { modules: string[]; styles: string[]; hasData: boolean; leafRouteId?: string };

/**
 * The code (modules and their imports, CSS) of every route the target matches, minus what is loaded, and
 * whether any of them has a loader (then the page has data to fetch).
 */
export function planRoute(
  router: Pick<DataRouter, "routes">,
  manifest: AssetsManifest,
  target: URL,
  isLoaded: (url: string) => boolean,
): RoutePlan {
  const modules = new Set<string>();
  const styles = new Set<string>();
  let hasData = false;
  const matches = matchRoutes(router.routes, target.pathname) ?? [];
  for (const { route } of matches) {
    const assets = routeAssets(manifest, route.id);
    if (!assets) continue;
    hasData ||= assets.hasLoader;
    for (const url of assets.modules) if (!isLoaded(url)) modules.add(url);
    for (const url of assets.styles) if (!isLoaded(url)) styles.add(url);
  }
  return { modules: [...modules], styles: [...styles], hasData, leafRouteId: matches.at(-1)?.route.id };
}

/** Whether the browser asks to save data (Save-Data, or a 2g connection): then nothing is prefetched. */
export function savesData(): boolean {
  const connection = (
    navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }
  ).connection;
  return connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? "");
}
