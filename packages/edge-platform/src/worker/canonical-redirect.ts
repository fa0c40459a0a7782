import * as serverBuild from "virtual:react-router/server-build";
import { STATIC_ROUTE_IDS } from "../build-config";
import { canonicalLocations } from "../canonical-path";

/** Built once per isolate from the server build's route manifest (the routes React Router matches). */
const canonicalLocationOf = canonicalLocations(serverBuild.routes, {
  basename: serverBuild.basename,
  staticRouteIds: STATIC_ROUTE_IDS,
});

/**
 * One page, one address (packages/edge-platform/docs/caching.md): a GET or HEAD whose path React Router matches only
 * case-insensitively, only after decoding, or with a trailing slash (a pre-rendered page's is the assets'
 * to answer) is sent to the page's canonical spelling
 * before anything renders, its query as it came. 308, as the https redirect: permanent, and a client that
 * follows it keeps the method. Other methods are left alone (an action answers where it was posted), and so
 * are paths no route matches (their 404 is the same whatever the spelling).
 */
export function canonicalRedirect(request: Request, url: URL): Response | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const location = canonicalLocationOf(url);
  if (location === undefined) return undefined;
  return new Response(null, { status: 308, headers: { Location: location } });
}
