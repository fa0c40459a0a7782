import { data, type ServerBuild } from "react-router";
import { REQUEST_BODY_TIMEOUT_MS } from "../constants";
import { readFormData } from "../http/form-data.server";
import { getRequestContext } from "../request-context";
import { clientOverLimit, type RateLimitName } from "./rate-limit";
import { type WriteLimited, writeLimitedMessage } from "./write-limited";

/**
 * A route's own limit for its writes, exported by its module (`export const writeLimit: WriteLimit = …`):
 * `{ binding: "NAME" }` counts them against another `[[ratelimits]]` binding of wrangler.toml (its own
 * limit, period and counters, e.g. a stricter one for a sign-up form), `"off"` leaves them to the route
 * (it limits them itself, or must never refuse one). Without the export, writes count against
 * WRITE_RATE_LIMIT.
 */
export type WriteLimit = "off" | { binding: RateLimitName };

/** The binding every route's writes count against unless the route says otherwise. */
const DEFAULT_WRITE_LIMIT: RateLimitName = "WRITE_RATE_LIMIT";

type ServerRouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
type RouteAction = NonNullable<ServerRouteModule["action"]>;

/**
 * The binding a route's writes count against, from its module's `writeLimit` export; undefined for
 * `"off"`. Any other value throws, naming the route: the Worker then fails to start (the build's
 * pre-rendering runs it, so the build fails), rather than running with a limit nobody chose.
 */
export function writeLimitBinding(routeId: string, writeLimit: unknown): RateLimitName | undefined {
  if (writeLimit === undefined) return DEFAULT_WRITE_LIMIT;
  if (writeLimit === "off") return undefined;
  if (
    typeof writeLimit === "object" &&
    writeLimit !== null &&
    "binding" in writeLimit &&
    typeof writeLimit.binding === "string" &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(writeLimit.binding)
  ) {
    return writeLimit.binding as RateLimitName;
  }
  throw new Error(
    `Route ${routeId}: \`writeLimit\` must be "off" or { binding: "<a [[ratelimits]] binding>" }, not ${JSON.stringify(writeLimit)}.`,
  );
}

/**
 * Every route's action counted against its client's limit before it runs (writes: the POST, PUT, PATCH
 * and DELETE requests that reach React Router). Over the limit, the action does not run: nothing is
 * stored, and the answer is 429 with `Retry-After` and the posted text fields as the action's data
 * (WriteLimited), which the route's page shows in its form. Routes without an action are left alone (the
 * platform's 405 answers them). Done once, when the Worker starts.
 */
export function withWriteLimits(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const action = route?.module.action;
    const binding = route && writeLimitBinding(id, (route.module as { writeLimit?: unknown }).writeLimit);
    routes[id] =
      route && action && binding
        ? { ...route, module: { ...route.module, action: limited(action, binding) } }
        : route;
  }
  return { ...build, routes };
}

function limited(action: RouteAction, binding: RateLimitName): RouteAction {
  return async (args) => {
    const perRequest = getRequestContext(args.context);
    const retryAfterSeconds = await clientOverLimit(perRequest.env, binding, args.request);
    if (retryAfterSeconds === undefined) return action(args);
    // React Router keeps only an action's cookies on a page without a `headers` export, so the Worker writes
    // Retry-After on whatever answer this request ends with (worker/app.ts, headers.ts's withRetryAfter).
    perRequest.retryAfterSeconds = retryAfterSeconds;
    const refusal: WriteLimited = {
      writeLimited: {
        retryAfterSeconds,
        message: writeLimitedMessage(retryAfterSeconds, perRequest.visitor.locale),
      },
      values: await postedText(args.request),
    };
    return data(refusal, { status: 429 });
  };
}

/** Larger than any form typed by hand; a larger body is refused, its fields not echoed. */
const MAX_ECHOED_FORM_BYTES = 64 * 1024;

/** The posted form's text fields, to put back in the page; none when the body is not a readable form. */
async function postedText(request: Request): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await readFormData(request, {
      maxBytes: MAX_ECHOED_FORM_BYTES,
      timeoutMs: REQUEST_BODY_TIMEOUT_MS,
    });
  } catch {
    return {};
  }
  const values = new Map<string, string>();
  for (const [name, value] of form) {
    if (typeof value === "string" && !values.has(name)) values.set(name, value);
  }
  // fromEntries defines own properties: a field named `__proto__` stays a field.
  return Object.fromEntries(values);
}
