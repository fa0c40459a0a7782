import { STATIC_ROUTE_IDS } from "../build-config";
import { PREFETCH_STALE_MS_DYNAMIC, PREFETCH_STALE_MS_STATIC } from "../constants";

/**
 * packages/edge-platform/docs/contract.md C5: how long prefetched data of a page served by `routeId` (the deepest route its URL matches) may
 * be used instead of a new request.
 */
export function prefetchStaleTime(routeId: string | undefined, staticRoutes = STATIC_ROUTE_IDS): number {
  return routeId !== undefined && staticRoutes.has(routeId)
    ? PREFETCH_STALE_MS_STATIC
    : PREFETCH_STALE_MS_DYNAMIC;
}
