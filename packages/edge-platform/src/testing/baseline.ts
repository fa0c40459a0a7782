import { RouterContextProvider } from "react-router";
import { platformConfig } from "../config.server";
import { createRequestErrors } from "../errors/request-errors";
import type { WorkerEnv } from "../platform-env";
import { requestContext } from "../request-context";
import { isPageDataPath } from "../single-fetch";

/**
 * `edge-platform/testing/baseline`, for a benchmark's baseline Worker only (the product's bench/bare): the
 * per-request context the platform's loaders and renderer read, made without any of the Worker's steps, so
 * that React Router's own handler can run the same routes. Runs in the Worker, unlike the rest of
 * `edge-platform/testing`. Not negotiated: the visitor is English in UTC, whatever the request says.
 */
export function baselineRouterContext(
  request: Request,
  env: WorkerEnv,
  ctx: ExecutionContext,
): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestContext, {
    env,
    config: platformConfig(env),
    pageData: isPageDataPath(new URL(request.url).pathname),
    nonce: "",
    errors: createRequestErrors(),
    tracer: undefined,
    waitUntil: (promise) => ctx.waitUntil(promise),
    cachePurger: undefined,
    visitor: { locale: "en", direction: "ltr", timeZone: "UTC" },
  });
  return context;
}
