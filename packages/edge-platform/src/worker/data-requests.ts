/**
 * A single-fetch data request (`/page.data?_routes=a,b`) names the routes whose loaders to run. React
 * Router answers an empty 200 for ids that name no route; the browser never sends one, so such a request
 * is a bug or a probe and gets a 400 that says why.
 */
export function unknownRouteIds(url: URL, routeIds: ReadonlySet<string>): string[] {
  if (!url.pathname.endsWith(".data")) return [];
  const listed = url.searchParams.get("_routes");
  if (!listed) return [];
  return listed.split(",").filter((id) => !routeIds.has(id));
}
