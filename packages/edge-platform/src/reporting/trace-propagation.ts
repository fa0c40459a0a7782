/**
 * Where the SDKs may send a trace (`sentry-trace`, `baggage`) with an outgoing request: the app's own origin in
 * the browser (page data, actions) and the origins the configuration names (SENTRY_TRACE_PROPAGATION_ORIGINS),
 * never anywhere else. The SDKs' defaults send them to every origin from the Worker and to any URL containing
 * "localhost" from the browser, and a string target matches anywhere in the URL (`https://app.example` would
 * match `https://app.example.evil.net`), so each origin is a RegExp anchored at the start and ended by the
 * origin's own boundary.
 */
export function tracePropagationTargets(origins: readonly string[]): RegExp[] {
  return origins.map((origin) => new RegExp(`^${escapeRegExp(origin)}(?:[/?#]|$)`, "i"));
}

/** Relative URLs (`/items.data`): the page's own origin, as the browser SDK sees a relative fetch. */
export const RELATIVE_URL = /^\/(?!\/)/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Whether an incoming request's trace may decide anything (its sampling, the trace it joins): only a request
 * the app's own pages made (the browser says so in `Sec-Fetch-Site`, which a page cannot set). Anything else
 * starts a trace of its own at the configured rate: a caller elsewhere cannot force the Worker to trace.
 */
export function isOwnPagesTrace(headers: Headers): boolean {
  return headers.get("sec-fetch-site") === "same-origin";
}
