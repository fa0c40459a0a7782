import { data, type ServerBuild } from "react-router";
import { reasonPhrase } from "../http/status-text.server";
import { routeName } from "../monitoring/route-name";
import { getRequestPlatform } from "../request-context";
import { isDataWithResponseInit } from "./control-flow";
import { recordRejection, type ServerErrorScope, serverErrorPayload } from "./server-error.server";

type ServerRouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
type RouteHandler = NonNullable<ServerRouteModule["loader"]>;
type RouteMiddleware = NonNullable<ServerRouteModule["middleware"]>[number];

/**
 * Wraps every route's loader, action and middleware so that an uncaught exception leaves the server as
 * a digest-only 500 (docs/contract.md C1), for document and `.data` requests alike. React Router would otherwise
 * replace it by a bare "Unexpected Server Error" with no way to carry the digest to the error page.
 * A thrown refusal (`data(…, { status })`, a Response) without a status text gets its status's reason
 * phrase, which React Router would otherwise send as "Internal Server Error" or "" (http/status-text.server.ts).
 * A route without an action refuses a mutation with a plain 405 and its Allow (`refuseMutation`).
 * Done once, when the Worker starts, so product routes inherit it without doing anything.
 */
export function withServerErrorDigests(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    routes[id] = route && { ...route, module: guardModule(route.module) };
  }
  return { ...build, routes };
}

function guardModule(module: ServerRouteModule): ServerRouteModule {
  return {
    ...module,
    ...(module.loader && { loader: guardHandler(module.loader) }),
    action: module.action ? guardHandler(module.action) : refuseMutation,
    ...(module.middleware && { middleware: module.middleware.map(guardMiddleware) }),
  };
}

function guardHandler(handler: RouteHandler): RouteHandler {
  return async (args) => {
    getRequestPlatform(args.context).errors.route ??= routeName(args.pattern);
    try {
      const result = await handler(args);
      recordStreamedRejections(result, args);
      return result;
    } catch (error) {
      throw withReasonPhrase(toDigestResponse(error, args));
    }
  };
}

function guardMiddleware(middleware: RouteMiddleware): RouteMiddleware {
  return async (args, next) => {
    getRequestPlatform(args.context).errors.route ??= routeName(args.pattern);
    try {
      return await middleware(args, next);
    } catch (error) {
      throw withReasonPhrase(toDigestResponse(error, args));
    }
  };
}

/**
 * The action of a route that has none. React Router's own 405 for it carries a developer message that
 * names the route ("You made a PATCH request to … but did not provide an `action` for route …"), which
 * reached the page's hydration data and, through the error page, its text (issue 19); this one carries no
 * message, and the methods such a route answers. The browser's router never calls it: the route manifest,
 * built from the route's own module, still says the route has no action.
 */
function refuseMutation(): never {
  throw data(null, { status: 405, statusText: reasonPhrase(405), headers: { Allow: "GET, HEAD" } });
}

/** A thrown `data()` reaches the error boundary as a route error response, which is not sanitized. */
function toDigestResponse(error: unknown, scope: ServerErrorScope): unknown {
  const payload = serverErrorPayload(error, scope);
  return payload ? data(payload, { status: 500 }) : error;
}

/** A thrown error status with no status text gets the status's reason phrase; anything else is unchanged. */
export function withReasonPhrase(thrown: unknown): unknown {
  if (isDataWithResponseInit(thrown)) {
    const status = thrown.init?.status ?? 200;
    if (status < 400 || thrown.init?.statusText) return thrown;
    return data(thrown.data, { ...thrown.init, statusText: reasonPhrase(status) });
  }
  if (thrown instanceof Response && thrown.status >= 400 && !thrown.statusText) {
    return new Response(thrown.body, {
      status: thrown.status,
      statusText: reasonPhrase(thrown.status),
      headers: thrown.headers,
    });
  }
  return thrown;
}

/**
 * Promises a loader returns unawaited are streamed (`<Await>`): one that rejects fails after the Response
 * exists, and React Router only hands the sanitized rejection to the page's `errorElement`. It is a server
 * failure all the same (issue 18), so it is logged and reported from here.
 */
function recordStreamedRejections(result: unknown, scope: ServerErrorScope): void {
  const payload = isDataWithResponseInit(result) ? result.data : result;
  if (typeof payload !== "object" || payload === null) return;
  for (const value of Object.values(payload)) {
    if (value instanceof Promise) recordRejection(value, scope);
  }
}
