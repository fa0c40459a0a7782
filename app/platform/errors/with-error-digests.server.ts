import { data, type ServerBuild } from "react-router";
import { routeName } from "../monitoring/route-name";
import { getRequestPlatform } from "../request-context";
import { recordRejection, type ServerErrorScope, serverErrorPayload } from "./server-error.server";

type ServerRouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
type RouteHandler = NonNullable<ServerRouteModule["loader"]>;
type RouteMiddleware = NonNullable<ServerRouteModule["middleware"]>[number];

/**
 * Wraps every route's loader, action and middleware so that an uncaught exception leaves the server as
 * a digest-only 500 (docs/contract.md C1), for document and `.data` requests alike. React Router would otherwise
 * replace it by a bare "Unexpected Server Error" with no way to carry the digest to the error page.
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
    ...(module.action && { action: guardHandler(module.action) }),
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
      throw toDigestResponse(error, args);
    }
  };
}

function guardMiddleware(middleware: RouteMiddleware): RouteMiddleware {
  return async (args, next) => {
    getRequestPlatform(args.context).errors.route ??= routeName(args.pattern);
    try {
      return await middleware(args, next);
    } catch (error) {
      throw toDigestResponse(error, args);
    }
  };
}

/** A thrown `data()` reaches the error boundary as a route error response, which is not sanitized. */
function toDigestResponse(error: unknown, scope: ServerErrorScope): unknown {
  const payload = serverErrorPayload(error, scope);
  return payload ? data(payload, { status: 500 }) : error;
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

function isDataWithResponseInit(value: unknown): value is { data: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit"
  );
}
