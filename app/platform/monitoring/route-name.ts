/**
 * How reports name a route: React Router's own pattern of the matched routes (`pattern` in a route
 * handler's arguments and in its instrumentation info), written as an absolute path. React Router joins the
 * matched routes' relative paths (`items/:id`), so the leading slash is all that is added; nothing is
 * reconstructed from the URL.
 */
export function routeName(pattern: string): string {
  return pattern.startsWith("/") ? pattern : `/${pattern}`;
}

/** A server transaction's name: the method and the route (`GET /items/:id`, `POST /messages`). */
export function transactionName(method: string, pattern: string): string {
  return `${method.toUpperCase()} ${routeName(pattern)}`;
}
