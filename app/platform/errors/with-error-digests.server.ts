import { data, type ServerBuild } from "react-router";
import { serverErrorPayload } from "./server-error.server";

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
    try {
      return await handler(args);
    } catch (error) {
      throw toDigestResponse(error, args.request);
    }
  };
}

function guardMiddleware(middleware: RouteMiddleware): RouteMiddleware {
  return async (args, next) => {
    try {
      return await middleware(args, next);
    } catch (error) {
      throw toDigestResponse(error, args.request);
    }
  };
}

/** A thrown `data()` reaches the error boundary as a route error response, which is not sanitized. */
function toDigestResponse(error: unknown, request: Request): unknown {
  const payload = serverErrorPayload(error, request);
  return payload ? data(payload, { status: 500 }) : error;
}
