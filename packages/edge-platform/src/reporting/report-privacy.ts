/**
 * What error reports may say about the people using the app: nothing. Query strings, fragments, cookies,
 * request bodies, form fields and IP addresses never leave in an event, a transaction, a span or a
 * breadcrumb, from either SDK. The SDKs' own `dataCollection` options do most of it
 * (data-collection.ts); `scrubReport` is the one pure function both SDKs also run on everything they send,
 * for what those options do not reach (navigation breadcrumbs, span names and attributes, URLs inside
 * messages, the Referer's query).
 */

/**
 * Query parameters whose values may appear in reports, by exact name. Empty: every query value is left
 * out. Add a parameter only when its values can never identify a person (e.g. `page`, `sort`).
 */
export const REPORTED_QUERY_PARAMS: readonly string[] = [];

/** A URL or a path followed by a query and/or a fragment, inside any string. */
const URL_WITH_QUERY_OR_FRAGMENT =
  /((?:[a-z][a-z0-9+.-]*:\/\/[^\s"'<>?#/]*)?\/[^\s"'<>?#]*)(\?[^\s"'<>#]*)?(#[^\s"'<>]*)?/gi;

/** Keys whose values are query strings without their `?` (Sentry's request data, span attributes). */
const QUERY_KEYS = new Set(["query_string", "http.query", "url.query"]);

/** Keys that carry a person's data, whatever their value: dropped wherever they occur. */
const PERSONAL_KEYS = new Set(["cookies", "user", "ip_address", "client.address", "user.ip_address"]);

/** Keys dropped under a given parent: a request's body, and the Cookie header. */
const PERSONAL_CHILD_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  request: new Set(["data", "cookies"]),
  headers: new Set(["cookie", "set-cookie"]),
};

/**
 * The URL with every query parameter not in `allowed` removed, and its fragment removed. Keeps the rest
 * of the string as it was.
 */
export function scrubUrl(text: string, allowed: readonly string[] = REPORTED_QUERY_PARAMS): string {
  // Most strings of a report (ids, ops, names, stack lines) have neither: no regular expression for them.
  if (!text.includes("?") && !text.includes("#")) return text;
  return text.replace(
    URL_WITH_QUERY_OR_FRAGMENT,
    (whole, base: string, query?: string, fragment?: string) => {
      if (query === undefined && fragment === undefined) return whole;
      const kept = query ? keptQuery(query.slice(1), allowed) : "";
      return `${base}${kept ? `?${kept}` : ""}`;
    },
  );
}

function keptQuery(query: string, allowed: readonly string[]): string {
  if (allowed.length === 0 || !query) return "";
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const [name, value] of params) if (allowed.includes(name)) kept.append(name, value);
  return kept.toString();
}

/**
 * A copy of an event, transaction or breadcrumb with the person's data taken out (see the module's
 * comment). Typed by what it keeps: the same shape comes back.
 */
export function scrubReport<T>(report: T, allowed: readonly string[] = REPORTED_QUERY_PARAMS): T {
  const scrubbed = (
    isRecord(report) && isRecord(report[SDK_METADATA])
      ? withSdkMetadata(report, report[SDK_METADATA], allowed)
      : scrubValue(report, allowed, undefined)
  ) as T;
  if (isRecord(scrubbed)) {
    // Sentry infers an event's IP address from the connection unless told not to.
    const sdk = isRecord(scrubbed.sdk) ? scrubbed.sdk : undefined;
    if (sdk) sdk.settings = { ...(isRecord(sdk.settings) ? sdk.settings : {}), infer_ip: "never" };
  }
  return scrubbed;
}

/**
 * The SDK's own bookkeeping on an event (its scopes, and the client behind them): it never leaves the SDK,
 * except its dynamic sampling context, which becomes the envelope's `trace` header (the SDK deletes the rest
 * before it builds the envelope). Walking it would copy the scopes and the whole client for every
 * transaction (what that cost is in packages/edge-platform/docs/PERFORMANCE.md, "Reporting's cost"), and the
 * SDK would get plain copies where it expects its scopes.
 */
const SDK_METADATA = "sdkProcessingMetadata";

function withSdkMetadata(
  report: Record<string, unknown>,
  metadata: Record<string, unknown>,
  allowed: readonly string[],
): Record<string, unknown> {
  const { [SDK_METADATA]: _, ...rest } = report;
  const context = metadata.dynamicSamplingContext;
  return {
    ...(scrubValue(rest, allowed, undefined) as Record<string, unknown>),
    [SDK_METADATA]: {
      ...metadata,
      ...(context !== undefined && { dynamicSamplingContext: scrubValue(context, allowed, undefined) }),
    },
  };
}

function scrubValue(value: unknown, allowed: readonly string[], key: string | undefined): unknown {
  if (typeof value === "string") {
    return key !== undefined && QUERY_KEYS.has(key)
      ? keptQuery(value.replace(/^\?/, ""), allowed)
      : scrubUrl(value, allowed);
  }
  if (Array.isArray(value)) {
    // Sentry sends query strings and headers also as [name, value] pairs.
    if (key !== undefined && QUERY_KEYS.has(key)) {
      return value.filter((pair) => Array.isArray(pair) && allowed.includes(String(pair[0])));
    }
    return value.map((item) => scrubValue(item, allowed, undefined));
  }
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (PERSONAL_KEYS.has(lower) || (key !== undefined && PERSONAL_CHILD_KEYS[key]?.has(lower))) continue;
    result[name] = scrubValue(item, allowed, name);
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
