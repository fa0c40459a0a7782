/// <reference path="../worker/node-async-hooks.d.ts" />
import { AsyncLocalStorage } from "node:async_hooks";
import { data, type RouterContextProvider, type ServerBuild } from "react-router";
import { routeName } from "../reporting/route-name";
import { getRequestContext } from "../request-context";
import { isDataWithResponseInit } from "./control-flow";
import {
  recordErrorStatus,
  recordRejection,
  recordServerError,
  type ServerErrorScope,
  serverErrorPayload,
} from "./server-error.server";

type ServerRouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
type RouteHandler = NonNullable<ServerRouteModule["loader"]>;
type RouteMiddleware = NonNullable<ServerRouteModule["middleware"]>[number];
type RouteHeaders = NonNullable<ServerRouteModule["headers"]>;

/**
 * The request a route's `headers` export runs for: React Router passes it no request and no context, so the
 * app runs each request inside this store (renderRequest).
 */
const currentRequest = new AsyncLocalStorage<ServerErrorScope>();

type RequestHandler = (request: Request, context: RouterContextProvider) => Promise<Response>;

/**
 * Hands one request to React Router with the platform's guards, inside the store its routes' `headers`
 * exports read their request from (the Worker's last step, worker/app.ts).
 */
export function renderRequest(
  handle: RequestHandler,
  { request, context }: { request: Request; context: RouterContextProvider },
): Promise<Response> {
  return currentRequest.run({ request, context }, () => handle(request, context));
}

/**
 * The answer to a request whose route's `headers` export threw, or undefined when none did. React Router has
 * already answered an empty 500 (or, for page data, a digest-less error); the request is then answered again
 * by `answerAgain`, React Router with withHeadersFailureAnswer's build, whose root middleware throws the
 * recorded error's digest before any handler runs (packages/edge-platform/docs/contract.md C1): the error
 * page with the digest of its log line, and no loader or action runs twice.
 */
export async function headersFailureAnswer(
  response: Response,
  answerAgain: () => RequestHandler,
  { request, context }: { request: Request; context: RouterContextProvider },
): Promise<Response | undefined> {
  if (getRequestContext(context).errors.headersFailure === undefined) return undefined;
  await response.body?.cancel();
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  // The body was read (or refused) already; the root middleware throws before anything reads it again.
  const again = new Request(request.url, { method: request.method, headers, signal: request.signal });
  return renderRequest(answerAgain(), { request: again, context });
}

/** A guarded build (withServerErrorDigests) whose root first throws the digest of a `headers` failure. */
export function withHeadersFailureAnswer(build: ServerBuild): ServerBuild {
  const root = build.routes.root;
  if (!root) return build;
  const middleware = [answerHeadersFailure, ...(root.module.middleware ?? [])];
  return { ...build, routes: { ...build.routes, root: { ...root, module: { ...root.module, middleware } } } };
}

/**
 * Wraps every route's loader, action and middleware so that an uncaught exception leaves the server as
 * a digest-only 500 (packages/edge-platform/docs/contract.md C1), for document and `.data` requests alike. React Router would otherwise
 * replace it by a bare "Unexpected Server Error" with no way to carry the digest to the error page.
 * A thrown refusal (`data(…, { status })`, a Response) without a status text gets its status's reason
 * phrase, which React Router would otherwise send as "Internal Server Error" or "" (reasonPhrase, below).
 * A route without an action refuses a mutation with a plain 405 and its Allow (`refuseMutation`).
 * Done once, when the Worker starts, so product routes inherit it without doing anything.
 */
export function withServerErrorDigests(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    routes[id] = route && { ...route, module: guardModule(route.module, id) };
  }
  return { ...build, routes };
}

function guardModule(module: ServerRouteModule, routeId: string): ServerRouteModule {
  return {
    ...module,
    ...(module.loader && { loader: guardHandler(module.loader, failedHandlerKey("loader", routeId)) }),
    action: module.action ? guardHandler(module.action, failedHandlerKey("action", routeId)) : refuseMutation,
    ...(module.headers && { headers: guardHeaders(module.headers) }),
    ...(module.middleware && {
      middleware: module.middleware.map((m) => guardMiddleware(m, failedHandlerKey("middleware", routeId))),
    }),
  };
}

/**
 * How a failed handler is named in `errors.failedHandlers`: the route tracing marks its span failed by it
 * (route-tracing.server.ts), since React Router's instrumentation calls only a thrown `Error` a failure and
 * the guard throws the digest as data.
 */
export function failedHandlerKey(kind: "loader" | "action" | "middleware", routeId: string): string {
  return `${kind} ${routeId}`;
}

function guardHandler(handler: RouteHandler, key: string): RouteHandler {
  return async (args) => {
    const errors = getRequestContext(args.context).errors;
    errors.route ??= routeName(args.pattern);
    let result: unknown;
    try {
      result = await handler(args);
    } catch (error) {
      const thrown = withReasonPhrase(toDigestResponse(error, args));
      if (markFailure(statusOf(thrown), args)) errors.failedHandlers.add(key);
      throw thrown;
    }
    if (markFailure(statusOf(result), args)) errors.failedHandlers.add(key);
    recordStreamedRejections(result, args);
    return result;
  };
}

/** Whether an answer is a failure (5xx); one the route chose itself, not an exception, is logged here. */
function markFailure(status: number, scope: ServerErrorScope): boolean {
  if (status < 500) return false;
  const errors = getRequestContext(scope.context).errors;
  // An exception the guard turned into a digest is logged already, with its stack.
  if (errors.recorded.size === 0) recordErrorStatus(status, scope);
  return true;
}

/** The status a handler chose by returning or throwing `data()` or a Response; 0 for anything else. */
function statusOf(value: unknown): number {
  if (isDataWithResponseInit(value)) return value.init?.status ?? 200;
  return value instanceof Response ? value.status : 0;
}

/**
 * A `headers` export that throws is recorded like any server error of the request; React Router gets no
 * headers from it, and the request is answered again with the error page (headersFailureAnswer).
 */
function guardHeaders(headers: RouteHeaders): RouteHeaders {
  if (typeof headers !== "function") return headers;
  return (args) => {
    try {
      return headers(args);
    } catch (error) {
      const scope = currentRequest.getStore();
      if (!scope) throw error;
      const errors = getRequestContext(scope.context).errors;
      errors.headersFailure ??= recordServerError(error, scope);
      return {};
    }
  };
}

/** The root's first middleware: in the second answer to a request whose `headers` threw, the digest-only 500. */
const answerHeadersFailure: RouteMiddleware = ({ context }, next) => {
  const digest = getRequestContext(context).errors.headersFailure;
  if (digest !== undefined) throw withReasonPhrase(data({ digest }, { status: 500 }));
  return next();
};

function guardMiddleware(middleware: RouteMiddleware, key: string): RouteMiddleware {
  return async (args, next) => {
    const errors = getRequestContext(args.context).errors;
    errors.route ??= routeName(args.pattern);
    try {
      return await middleware(args, next);
    } catch (error) {
      const thrown = withReasonPhrase(toDigestResponse(error, args));
      if (markFailure(statusOf(thrown), args)) errors.failedHandlers.add(key);
      throw thrown;
    }
  };
}

/**
 * The action of a route that has none. React Router's own 405 for it carries a developer message that names
 * the route ("You made a PATCH request to … but did not provide an `action` for route …"), which reached the
 * page's hydration data and, through the error page, its text (packages/edge-platform/docs/decisions/019-probe-findings.md); this
 * one carries no message; the Worker's headers step (headers.ts) gives it the methods such a route answers,
 * `Allow: GET, HEAD`. The browser's router never calls it: the route manifest, built from the route's own
 * module, still says the route has no action.
 */
function refuseMutation(): never {
  throw data(null, { status: 405, statusText: reasonPhrase(405) });
}

/** A thrown `data()` reaches the error boundary as a route error response, which is not sanitized. */
function toDigestResponse(error: unknown, scope: ServerErrorScope): unknown {
  const payload = serverErrorPayload(error, scope);
  return payload ? data(payload, { status: 500 }) : error;
}

/** A thrown error status with no status text gets the status's reason phrase; anything else is unchanged. */
function withReasonPhrase(thrown: unknown): unknown {
  if (isDataWithResponseInit(thrown)) {
    const status = thrown.init?.status ?? 200;
    if (status < 400 || status > 599 || thrown.init?.statusText) return thrown;
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
 * failure all the same (packages/edge-platform/docs/reporting.md, "What a team gets for each kind of failure"), so it is logged
 * and reported from here.
 */
function recordStreamedRejections(result: unknown, scope: ServerErrorScope): void {
  const payload = isDataWithResponseInit(result) ? result.data : result;
  if (typeof payload !== "object" || payload === null) return;
  for (const value of Object.values(payload)) {
    if (value instanceof Promise) recordRejection(value, scope);
  }
}

/**
 * The reason phrase the runtime gives a Response of this status (200 to 599) made without one: workerd fills
 * in `statusText` from its own table (with "Client Error" or "Server Error" for a status it has no phrase
 * for), the text a Response the Worker makes carries anyway. Node's fetch leaves it empty.
 */
function reasonPhrase(status: number): string {
  return new Response(null, { status }).statusText;
}
