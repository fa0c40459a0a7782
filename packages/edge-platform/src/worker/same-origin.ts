const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const SAME_SITE_FETCH = new Set(["same-origin", "none"]);

/**
 * packages/edge-platform/docs/contract.md C6: whether a request that could reach an action comes from another site and must be refused
 * before any action code runs. `Origin` must be the request's own origin (or an allowed one; `null` never
 * is); without `Origin`, `Sec-Fetch-Site` must say same-origin or none. Browsers send one of the two on
 * every form post, so a request with neither is a non-browser client, which cross-site forgery is not.
 */
export function isCrossSiteMutation(request: Request, extraOrigins: ReadonlySet<string>): boolean {
  if (!MUTATING_METHODS.has(request.method.toUpperCase())) return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== new URL(request.url).origin && !extraOrigins.has(origin);
  const site = request.headers.get("Sec-Fetch-Site");
  return site !== null && !SAME_SITE_FETCH.has(site);
}
