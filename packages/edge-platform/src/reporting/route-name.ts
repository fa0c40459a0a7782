/**
 * How reports name a route: React Router's own pattern of the matched routes (`pattern` in a route
 * handler's arguments and in its instrumentation info), written as an absolute path. React Router joins the
 * matched routes' relative paths (`items/:id`), so the leading slash is all that is added; nothing is
 * reconstructed from the URL.
 */
export function routeName(pattern: string): string {
  return pattern.startsWith("/") ? pattern : `/${pattern}`;
}

/**
 * The pattern of a match, from the matched routes' own paths (React Router's instrumentation info gives each
 * route's `path`), joined as React Router joins them for the `pattern` it hands to route handlers.
 */
export function matchedRouteName(paths: readonly (string | undefined)[]): string {
  return routeName(paths.filter(Boolean).join("/").replace(/\/\/+/g, "/"));
}

/** A server transaction's name: the method and the route (`GET /items/:id`, `POST /messages`). */
export function transactionName(method: string, pattern: string): string {
  return `${method.toUpperCase()} ${routeName(pattern)}`;
}
