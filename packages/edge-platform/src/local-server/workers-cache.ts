import CachePolicy from "http-cache-semantics";

/**
 * Cloudflare's Workers Cache, emulated in front of the local Worker's SharedPages entrypoint (serve-build.ts,
 * vite/dev-workers-cache.ts; never deployed). In production a cache in front of the entrypoint (`cache` and
 * `exports` in wrangler.toml) answers what it holds without running it; Miniflare has none, so without this
 * the app's shared pages would be rendered on every request locally and a purge would have nothing to act on.
 * It follows Cloudflare's documented rules (packages/edge-platform/docs/caching.md, "Locally: the Workers
 * Cache emulation"):
 *
 * - the key is the path and query string as sent and the call's `ctx.props` (serialized with its keys
 *   sorted), not the host, the method or any header: GET and HEAD share an entry, and a HEAD that misses is
 *   fetched as a GET;
 * - what may be stored and for how long is RFC 9111 as http-cache-semantics decides it (a shared cache),
 *   fed the most specific of `Cloudflare-CDN-Cache-Control`, `CDN-Cache-Control` and `Cache-Control`;
 * - `Set-Cookie`, `Vary: *`, `private` and `no-store` bypass; 206 and 520-526 are never stored; an answer
 *   without any directive gets Cloudflare's heuristic lifetime for 200 and 404 only;
 * - concurrent requests for a key being filled run the Worker once and share the streamed body;
 * - `Cache-Tag` and `Cloudflare-CDN-Cache-Control` are consumed here and never reach the client;
 * - purge by tag, by path prefix or everything, rate-limited like the production API.
 *
 * In memory and bounded: at most `maxBytes` of bodies (64 MiB by default) and `maxEntries` entries (10,000),
 * the least recently used evicted first; one body larger than `maxEntryBytes` (8 MiB) is served but not kept.
 */

export type CachePurgeOptions = { tags?: string[]; pathPrefixes?: string[]; purgeEverything?: boolean };
export type CachePurgeResult = { success: boolean; errors: { code: number; message: string }[] };

export type CacheStatus =
  | "HIT"
  | "MISS"
  | "EXPIRED"
  | "REVALIDATED"
  | "UPDATING"
  | "STALE"
  | "BYPASS"
  | "DYNAMIC";

export type PurgeLimit = {
  /** Tokens added back per minute (Cloudflare's Free plan: 5). */
  requestsPerMinute: number;
  /** The bucket's size: purges allowed at once when it is full (Free plan: 25). */
  burst: number;
};

export type WorkersCacheOptions = {
  /** Runs the Worker (the cache's origin), with the props the request was made with (`fetch`'s). */
  fetchOrigin: (request: Request, props: unknown) => Promise<Response>;
  purgeLimit?: Partial<PurgeLimit>;
  maxBytes?: number;
  maxEntryBytes?: number;
  maxEntries?: number;
  /** The clock (ms), for tests that move time instead of waiting for it. */
  now?: () => number;
};

export type WorkersCacheStats = {
  /** Requests the cache sent to the Worker (misses, refreshes, revalidations and uncached requests). */
  originFetches: number;
  entries: number;
  bytes: number;
};

/** A call's `ctx.props` (part of the key, handed to the origin); none for a call without. */
export type CallOptions = { props?: unknown };

export type WorkersCache = {
  fetch(request: Request, options?: CallOptions): Promise<Response>;
  purge(options: CachePurgeOptions): CachePurgeResult;
  stats(): WorkersCacheStats;
  /** Resolves once background refreshes and bodies being stored have finished. */
  settled(): Promise<void>;
};

/** Cloudflare's Free plan: 5 purge requests a minute, up to 25 at once. */
const DEFAULT_PURGE_LIMIT: PurgeLimit = { requestsPerMinute: 5, burst: 25 };

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_ENTRY_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_ENTRIES = 10_000;

/** Cloudflare's lifetimes for answers that state none (seconds); other statuses are not stored. */
const HEURISTIC_MAX_AGE: Readonly<Record<number, number>> = { 200: 7_200, 404: 180 };

/** Most specific first: the first one present decides, the others are ignored. */
const DIRECTIVE_HEADERS = ["cloudflare-cdn-cache-control", "cdn-cache-control", "cache-control"] as const;

/** Consumed by the cache: the client never sees them. */
const CACHE_ONLY_HEADERS = ["cache-tag", "cloudflare-cdn-cache-control"];

/** Directives under which Cloudflare never serves a stale copy. */
const NO_STALE_DIRECTIVES = ["s-maxage", "must-revalidate", "proxy-revalidate"];

/**
 * The client's validators and ranges are its own business with the cache: a fill sent with them could store
 * a 304 or a 206 in place of the page.
 */
const CLIENT_CONDITIONAL_HEADERS = [
  "if-none-match",
  "if-modified-since",
  "if-match",
  "if-unmodified-since",
  "if-range",
  "range",
];

/**
 * RFC 5861's errors, for `stale-if-error`: an answer with one of these statuses (or none at all) leaves a
 * stale copy standing while the directive allows it (http-cache-semantics decides the window).
 */
const ERROR_STATUSES = new Set([500, 502, 503, 504]);

/**
 * After a failed refresh, how long the copy is served `STALE` before the next attempt: an outage costs the
 * Worker one attempt per key per interval, not one per request (Cloudflare does not document its own pace;
 * docs/caching.md).
 */
export const REFRESH_RETRY_MS = 10_000;

const MAX_TAG_LENGTH = 1024;
const MAX_TAGS = 1000;

type BufferedBody = {
  chunks: Uint8Array[];
  bytes: number;
  done: boolean;
  failed: boolean;
  error: unknown;
  wake: Set<() => void>;
};

type Entry = {
  key: string;
  /** The path and query of the key (what a purge by path prefix reads). */
  path: string;
  /** The props the entry was filled with, for its refreshes. */
  props: unknown;
  /** The request header values the answer varies on, by lower-case name (null: absent). */
  vary: [string, string | null][];
  policy: CachePolicy;
  /** Whether a stale copy may be served at all (no s-maxage, must-revalidate or proxy-revalidate). */
  staleAllowed: boolean;
  status: number;
  statusText: string;
  /** What the client receives (the cache's own headers removed). */
  headers: [string, string][];
  tags: string[];
  body: BufferedBody;
  stored: boolean;
  /**
   * After a refresh failed (an error status or no answer) while `stale-if-error` let the copy stand: no
   * other refresh before this time (ms), the copy served `STALE` meanwhile.
   */
  retryAt?: number;
};

type Admission =
  | { kind: "store"; policy: CachePolicy; staleAllowed: boolean; tags: string[] }
  | { kind: "pass"; status: "BYPASS" | "MISS" };

export function createWorkersCache({
  fetchOrigin,
  purgeLimit = {},
  maxBytes = DEFAULT_MAX_BYTES,
  maxEntryBytes = DEFAULT_MAX_ENTRY_BYTES,
  maxEntries = DEFAULT_MAX_ENTRIES,
  now = Date.now,
}: WorkersCacheOptions): WorkersCache {
  const limit = { ...DEFAULT_PURGE_LIMIT, ...purgeLimit };
  // The library reads the clock itself (it documents `now` as the method to replace).
  class Policy extends CachePolicy {
    now(): number {
      return now();
    }
  }
  /** Variants by key; a key's answers that vary on request headers each have one. */
  const store = new Map<string, Entry[]>();
  /** Every stored entry, least recently used first. */
  const recency = new Set<Entry>();
  const byTag = new Map<string, Set<Entry>>();
  /** Fills under way by key: requests arriving meanwhile wait for it instead of running the Worker. */
  const filling = new Map<string, Promise<void>>();
  /** Keys with a background refresh under way: one per key. */
  const refreshing = new Set<string>();
  const background = new Set<Promise<unknown>>();
  let storedBytes = 0;
  let originFetches = 0;
  /** Bumped by every purge: an answer rendered before one must not be stored after it. */
  let purges = 0;
  let tokens = limit.burst;
  let tokensAt = now();

  function track(work: Promise<unknown>): void {
    const settled = work.then(
      () => {},
      () => {},
    );
    background.add(settled);
    void settled.then(() => background.delete(settled));
  }

  async function origin(request: Request, props: unknown): Promise<Response> {
    originFetches++;
    return fetchOrigin(request, props);
  }

  function lookup(key: string, request: Request): Entry | undefined {
    return store.get(key)?.find((entry) => varyMatches(entry.vary, request.headers));
  }

  function remove(entry: Entry): void {
    if (!entry.stored) return;
    entry.stored = false;
    const variants = store.get(entry.key)?.filter((other) => other !== entry) ?? [];
    if (variants.length > 0) store.set(entry.key, variants);
    else store.delete(entry.key);
    recency.delete(entry);
    storedBytes -= entry.body.bytes;
    for (const tag of entry.tags) {
      const entries = byTag.get(tag);
      entries?.delete(entry);
      if (entries?.size === 0) byTag.delete(tag);
    }
  }

  function evictOverBounds(): void {
    for (const oldest of recency) {
      if (storedBytes <= maxBytes && recency.size <= maxEntries) return;
      remove(oldest);
    }
  }

  function insert(entry: Entry, request: Request): void {
    for (const previous of store.get(entry.key) ?? []) {
      if (varyMatches(previous.vary, request.headers)) remove(previous);
    }
    store.set(entry.key, [...(store.get(entry.key) ?? []), entry]);
    recency.add(entry);
    for (const tag of entry.tags) {
      const entries = byTag.get(tag) ?? new Set();
      entries.add(entry);
      byTag.set(tag, entries);
    }
    evictOverBounds();
  }

  /** Stores the answer (its body arrives in the background) and returns the entry, or says why not. */
  function admitted(
    key: string,
    props: unknown,
    request: Request,
    response: Response,
    purgesAtStart: number,
  ) {
    const admission = admissionOf(request, response);
    if (admission.kind === "pass" || purges !== purgesAtStart) {
      return { entry: undefined, status: admission.kind === "pass" ? admission.status : ("MISS" as const) };
    }
    const headers = [...response.headers].filter(
      ([name]) => !CACHE_ONLY_HEADERS.includes(name.toLowerCase()),
    );
    const entry: Entry = {
      key,
      path: pathOf(request.url),
      props,
      vary: varyNames(response.headers.get("Vary")).map((name) => [name, request.headers.get(name)]),
      policy: admission.policy,
      staleAllowed: admission.staleAllowed,
      status: response.status,
      statusText: response.statusText,
      headers,
      tags: admission.tags,
      body: { chunks: [], bytes: 0, done: false, failed: false, error: undefined, wake: new Set() },
      stored: true,
    };
    insert(entry, request);
    track(
      fillBody(entry.body, response.body, (bytes) => {
        if (!entry.stored) return;
        storedBytes += bytes;
        if (entry.body.bytes > maxEntryBytes) remove(entry);
        else evictOverBounds();
      }).then(() => {
        // A body cut short must not be served again as if whole.
        if (entry.body.failed) remove(entry);
      }),
    );
    return { entry, status: "MISS" as const };
  }

  function admissionOf(request: Request, response: Response): Admission {
    const { status, headers } = response;
    if (status === 206 || (status >= 520 && status <= 526)) return { kind: "pass", status: "MISS" };
    if (headers.has("Set-Cookie")) return { kind: "pass", status: "BYPASS" };
    if (varyNames(headers.get("Vary")).includes("*")) return { kind: "pass", status: "BYPASS" };
    let directives = effectiveDirectives(headers);
    if (directives === undefined && !headers.has("Expires")) {
      const heuristic = HEURISTIC_MAX_AGE[status];
      if (heuristic === undefined) return { kind: "pass", status: "MISS" };
      directives = `max-age=${heuristic}`;
    }
    const parsed = parseDirectives(directives ?? "");
    const staleAllowed = !NO_STALE_DIRECTIVES.some((name) => parsed.has(name));
    // Fed without the stale directives when stale serving is off, so the library never offers a stale copy.
    // `proxy-revalidate` is `must-revalidate` for a shared cache (RFC 9111 5.2.2.8); the library would instead
    // give it no lifetime at all, which is not what Cloudflare does.
    const fed = staleAllowed
      ? directives
      : [...parsed]
          .filter(([name]) => name !== "stale-while-revalidate" && name !== "stale-if-error")
          .map(
            ([name, value]) =>
              (name === "proxy-revalidate" ? "must-revalidate" : name) +
              (value === undefined ? "" : `=${value}`),
          )
          .join(", ");
    const policy = new Policy(policyRequest(request), policyResponse(status, headers, fed));
    const forbidden = parsed.has("private") || parsed.has("no-store") || request.headers.has("Authorization");
    if (!policy.storable()) return { kind: "pass", status: forbidden ? "BYPASS" : "MISS" };
    // Storable but never fresh (max-age=0) and not to be revalidated: Cloudflare bypasses it.
    if (policy.timeToLive() === 0 && !parsed.has("no-cache")) return { kind: "pass", status: "BYPASS" };
    return { kind: "store", policy, staleAllowed, tags: cacheTags(headers.get("Cache-Tag")) };
  }

  /** Runs the Worker for a key (a miss, or a stale copy to revalidate) while later requests wait for it. */
  async function fill(
    key: string,
    props: unknown,
    request: Request,
    stale: Entry | undefined,
  ): Promise<Response> {
    let release = () => {};
    const owner = !filling.has(key);
    if (owner) filling.set(key, new Promise<void>((resolve) => (release = resolve)));
    const purgesAtStart = purges;
    const head = request.method === "HEAD";
    try {
      const conditional = stale ? stale.policy.revalidationHeaders(policyRequest(request)) : {};
      let response: Response;
      try {
        response = await origin(originRequest(request, conditional), props);
      } catch (error) {
        // The Worker could not answer: a stale copy that may be served stale is better than nothing.
        if (stale?.stored && stale.staleAllowed) {
          stale.retryAt = now() + REFRESH_RETRY_MS;
          return served(stale, "STALE", head);
        }
        throw error;
      }
      if (stale && (await keptThroughError(stale, request, response))) return served(stale, "STALE", head);
      if (stale && response.status === 304) {
        await response.body?.cancel();
        const { policy, modified } = stale.policy.revalidatedPolicy(
          policyRequest(request),
          policyResponse(304, response.headers, effectiveDirectives(response.headers)),
        );
        if (!modified && stale.stored) {
          stale.policy = policy;
          stale.retryAt = undefined;
          return served(stale, "REVALIDATED", head);
        }
        return fill(key, props, withoutValidators(request), undefined);
      }
      const { entry, status } = admitted(key, props, request, response, purgesAtStart);
      if (entry) return served(entry, stale ? "EXPIRED" : status, head);
      // The Worker says this answer may no longer be kept.
      if (stale) remove(stale);
      return toClient(response, status, head);
    } finally {
      if (owner) {
        filling.delete(key);
        release();
      }
    }
  }

  /**
   * RFC 5861's `stale-if-error`: a refresh answered with an error status leaves the stale copy standing while
   * its directive allows (the error's body is dropped), and no other refresh is tried for REFRESH_RETRY_MS.
   */
  async function keptThroughError(entry: Entry, request: Request, response: Response): Promise<boolean> {
    if (!ERROR_STATUSES.has(response.status) || !servableThroughError(entry, request)) return false;
    await response.body?.cancel();
    entry.retryAt = now() + REFRESH_RETRY_MS;
    return true;
  }

  /** Whether the copy's `stale-if-error` (the library's reading of it) still lets it stand for an error. */
  function servableThroughError(entry: Entry, request: Request): boolean {
    if (!entry.stored || !entry.staleAllowed) return false;
    return !entry.policy.revalidatedPolicy(policyRequest(request), { status: 503, headers: {} }).modified;
  }

  function refreshInBackground(entry: Entry, request: Request): void {
    if (refreshing.has(entry.key)) return;
    refreshing.add(entry.key);
    const refresh = (async () => {
      const purgesAtStart = purges;
      const conditional = entry.policy.revalidationHeaders(policyRequest(request));
      let response: Response;
      try {
        response = await origin(originRequest(request, conditional), entry.props);
      } catch {
        // No answer at all: the copy stands while it may be served stale, as after an error status.
        entry.retryAt = now() + REFRESH_RETRY_MS;
        return;
      }
      if (await keptThroughError(entry, request, response)) return;
      if (response.status === 304) {
        await response.body?.cancel();
        const { policy, modified } = entry.policy.revalidatedPolicy(
          policyRequest(request),
          policyResponse(304, response.headers, effectiveDirectives(response.headers)),
        );
        if (!modified) {
          entry.policy = policy;
          entry.retryAt = undefined;
        }
        return;
      }
      const { entry: fresh } = admitted(entry.key, entry.props, request, response, purgesAtStart);
      if (!fresh) {
        await response.body?.cancel();
        remove(entry);
      }
    })().finally(() => refreshing.delete(entry.key));
    track(refresh);
  }

  async function fetch(request: Request, { props }: CallOptions = {}): Promise<Response> {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return toClient(await origin(request, props), "DYNAMIC", false);
    }
    return answeredConditionally(request, await lookupOrFill(request, props));
  }

  async function lookupOrFill(request: Request, props: unknown): Promise<Response> {
    const key = cacheKey(request.url, props);
    const head = request.method === "HEAD";
    for (let waited = false; ; waited = true) {
      const entry = lookup(key, request);
      if (entry && !entry.policy.stale()) return served(entry, "HIT", head);
      // A refresh failed a moment ago: the copy stands, without another attempt, while it may.
      if (entry?.retryAt !== undefined && now() < entry.retryAt && servableThroughError(entry, request)) {
        return served(entry, "STALE", head);
      }
      if (entry?.staleAllowed) {
        const { revalidation } = entry.policy.evaluateRequest(policyRequest(request));
        if (revalidation && !revalidation.synchronous) {
          refreshInBackground(entry, request);
          return served(entry, "UPDATING", head);
        }
      }
      const underway = filling.get(key);
      if (underway && !waited) {
        await underway;
        continue;
      }
      return fill(key, props, request, entry);
    }
  }

  function served(entry: Entry, status: CacheStatus, head: boolean): Response {
    if (entry.stored) {
      recency.delete(entry);
      recency.add(entry);
    }
    const headers = new Headers(entry.headers);
    headers.set("cf-cache-status", status);
    if (status === "HIT" || status === "UPDATING" || status === "STALE" || status === "REVALIDATED") {
      headers.set("Age", String(Math.floor(entry.policy.age())));
    }
    return new Response(head ? null : bodyStream(entry.body), {
      status: entry.status,
      statusText: entry.statusText,
      headers,
    });
  }

  function purge(options: CachePurgeOptions): CachePurgeResult {
    const invalid = purgeInputErrors(options);
    if (invalid.length > 0) return { success: false, errors: invalid };
    const elapsed = now() - tokensAt;
    tokensAt = now();
    tokens = Math.min(limit.burst, tokens + (elapsed / 60_000) * limit.requestsPerMinute);
    if (tokens < 1) {
      return {
        success: false,
        errors: [{ code: 429, message: "Purge rate limit exceeded: retry later." }],
      };
    }
    tokens -= 1;
    purges++;
    if (options.purgeEverything) {
      for (const entry of [...recency]) remove(entry);
      return { success: true, errors: [] };
    }
    for (const tag of options.tags ?? []) {
      for (const entry of [...(byTag.get(tag.toLowerCase()) ?? [])]) remove(entry);
    }
    for (const prefix of options.pathPrefixes ?? []) {
      for (const entry of [...recency]) {
        if (underPrefix(entry.path, prefix)) remove(entry);
      }
    }
    return { success: true, errors: [] };
  }

  return {
    fetch,
    purge,
    stats: () => ({ originFetches, entries: recency.size, bytes: storedBytes }),
    async settled() {
      while (background.size > 0) await Promise.all(background);
    },
  };
}

/**
 * The key: the path and query string exactly as sent (order and trailing slashes matter; no host), and the
 * call's props when it has any, serialized with sorted keys (`{a, b}` and `{b, a}` are one key).
 */
function cacheKey(url: string, props: unknown): string {
  const path = pathOf(url);
  return props === undefined ? path : `${path}\n${stableJson(props)}`;
}

function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/** JSON with every object's keys in order: the same props give the same text, however they were built. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** The directives that decide caching: the most specific header present, whole. */
function effectiveDirectives(headers: Headers): string | undefined {
  for (const name of DIRECTIVE_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return value;
  }
  return undefined;
}

/** `Cache-Tag: a, b`: valid tags lower-cased (purges match them case-insensitively); invalid ones dropped. */
function cacheTags(header: string | null): string[] {
  const tags = (header ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0 && tag.length <= MAX_TAG_LENGTH && /^[\x21-\x7e]+$/.test(tag))
    .map((tag) => tag.toLowerCase());
  return [...new Set(tags)].slice(0, MAX_TAGS);
}

/**
 * Whether a key's request path starts with the prefix, whatever its query: no path-segment boundary, as
 * Workers Cache documents it (`/blog/2026/hello-world` also purges `/blog/2026/hello-world-2`), so a page's
 * path also reaches its `.data`.
 */
function underPrefix(pathAndQuery: string, prefix: string): boolean {
  return (pathAndQuery.split("?")[0] ?? "").startsWith(prefix);
}

function purgeInputErrors(options: CachePurgeOptions): CachePurgeResult["errors"] {
  const error = (message: string) => [{ code: 400, message }];
  if (typeof options !== "object" || options === null) return error("Purge options must be an object.");
  const { tags, pathPrefixes, purgeEverything } = options;
  if (purgeEverything !== undefined && typeof purgeEverything !== "boolean")
    return error("purgeEverything must be a boolean.");
  for (const [name, list] of [
    ["tags", tags],
    ["pathPrefixes", pathPrefixes],
  ] as const) {
    if (list !== undefined && (!Array.isArray(list) || !list.every((item) => typeof item === "string")))
      return error(`${name} must be an array of strings.`);
  }
  const selective = (tags?.length ?? 0) + (pathPrefixes?.length ?? 0) > 0;
  if (purgeEverything && (tags !== undefined || pathPrefixes !== undefined))
    return error("purgeEverything cannot be combined with tags or pathPrefixes.");
  if (!purgeEverything && !selective)
    return error("Nothing to purge: give tags, pathPrefixes or purgeEverything.");
  for (const prefix of pathPrefixes ?? []) {
    if (!prefix.startsWith("/") || prefix.startsWith("//") || /[?#]/.test(prefix) || /\s/.test(prefix))
      return error(`Invalid path prefix ${JSON.stringify(prefix)}: a path only (no scheme, host or query).`);
  }
  return [];
}

/** The request as the library sees it: no host (not part of the key), no client cache directives. */
function policyRequest(request: Request): CachePolicy.Request {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    if (name !== "host" && name !== "cache-control" && name !== "pragma") headers[name] = value;
  }
  return { url: pathOf(request.url), method: "GET", headers };
}

/** The answer as the library sees it: the effective directives in `Cache-Control`. */
function policyResponse(
  status: number,
  source: Headers,
  directives: string | undefined,
): CachePolicy.Response {
  const headers: Record<string, string> = {};
  for (const [name, value] of source) {
    if (!(DIRECTIVE_HEADERS as readonly string[]).includes(name)) headers[name] = value;
  }
  if (directives !== undefined) headers["cache-control"] = directives;
  return { status, headers };
}

/** The request the Worker receives for a fill: a GET (a HEAD is filled as one), with the cache's validators. */
function originRequest(request: Request, conditional: CachePolicy.Headers): Request {
  const headers = new Headers(request.headers);
  for (const name of CLIENT_CONDITIONAL_HEADERS) headers.delete(name);
  for (const name of ["if-none-match", "if-modified-since"]) {
    const value = conditional[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(request.url, { method: "GET", headers, redirect: "manual" });
}

function withoutValidators(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of CLIENT_CONDITIONAL_HEADERS) headers.delete(name);
  return new Request(request.url, { method: request.method, headers, redirect: "manual" });
}

function parseDirectives(value: string): Map<string, string | undefined> {
  const directives = new Map<string, string | undefined>();
  for (const part of value.split(",")) {
    const [name = "", ...rest] = part.split("=");
    const key = name.trim().toLowerCase();
    if (key) directives.set(key, rest.length > 0 ? rest.join("=").trim() : undefined);
  }
  return directives;
}

function varyNames(header: string | null): string[] {
  return (header ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

/** Cloudflare compares the varied-on request headers verbatim (no normalisation). */
function varyMatches(vary: [string, string | null][], headers: Headers): boolean {
  return vary.every(([name, value]) => headers.get(name) === value);
}

/** What the client receives of an answer the cache did not keep. */
/**
 * A cache answers a client's own validator (RFC 9111 section 4.3.2): `If-None-Match` naming the answer's
 * ETag (weakly compared) gets a 304 with the answer's headers, from a hit and a fill alike.
 */
function answeredConditionally(request: Request, response: Response): Response {
  const etag = response.headers.get("etag");
  const wanted = request.headers.get("if-none-match");
  if (response.status !== 200 || !etag || !wanted) return response;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const matches = wanted.trim() === "*" || wanted.split(",").some((tag) => opaque(tag) === opaque(etag));
  if (!matches) return response;
  void response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(null, { status: 304, headers });
}

function toClient(response: Response, status: CacheStatus, head: boolean): Response {
  const headers = new Headers(response.headers);
  for (const name of CACHE_ONLY_HEADERS) headers.delete(name);
  headers.set("cf-cache-status", status);
  if (head) void response.body?.cancel();
  return new Response(head ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Reads the Worker's body into the entry as it arrives, whoever is reading it (or nobody). */
async function fillBody(
  body: BufferedBody,
  source: ReadableStream<Uint8Array> | null,
  onChunk: (bytes: number) => void,
): Promise<void> {
  try {
    if (source) {
      const reader = source.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        body.chunks.push(value);
        body.bytes += value.byteLength;
        onChunk(value.byteLength);
        wakeReaders(body);
      }
    }
    body.done = true;
  } catch (error) {
    body.failed = true;
    body.error = error;
  }
  wakeReaders(body);
}

function wakeReaders(body: BufferedBody): void {
  const waiting = [...body.wake];
  body.wake.clear();
  for (const wake of waiting) wake();
}

/** One reader of a stored body: what has arrived at once, the rest as it arrives (a streamed page stays streamed). */
function bodyStream(body: BufferedBody): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (index >= body.chunks.length && !body.done && !body.failed) {
        await new Promise<void>((resolve) => body.wake.add(resolve));
      }
      const chunk = body.chunks[index];
      if (chunk) {
        index++;
        controller.enqueue(chunk);
      } else if (body.failed) controller.error(body.error);
      else controller.close();
    },
  });
}
