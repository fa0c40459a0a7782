import { requestedRouteIds } from "../single-fetch";

/**
 * A single-fetch data request (`/page.data?_routes=a,b`) names the routes whose loaders to run. React
 * Router answers an empty 200 for ids that name no route; the browser never sends one, so such a request
 * is a bug or a probe and gets a 400 that says why.
 */
export function unknownRouteIds(url: URL, routeIds: ReadonlySet<string>): string[] {
  return (requestedRouteIds(url) ?? []).filter((id) => !routeIds.has(id));
}
