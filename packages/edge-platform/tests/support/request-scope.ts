import { RouterContextProvider } from "react-router";
import type { PlatformConfig } from "../../src/config.server.ts";
import { createRequestErrors, type ServerErrorReporter } from "../../src/errors/request-errors.ts";
import type { WorkerEnv } from "../../src/platform-env.ts";
import { requestContext } from "../../src/request-context.ts";

/**
 * A request and its context as packages/edge-platform/src/worker/app.ts sets them up (its own error record; reporting to `report`, off
 * when omitted), for unit tests of what loaders and the renderer call.
 */
export function requestScope(init?: RequestInit, report?: ServerErrorReporter) {
  const context = new RouterContextProvider();
  context.set(requestContext, {
    env: {} as WorkerEnv,
    config: { failureRoutes: false, reporting: null } satisfies PlatformConfig,
    pageData: false,
    nonce: "",
    errors: createRequestErrors(report),
    tracer: undefined,
    waitUntil: () => {},
    cachePurger: undefined,
    visitor: { locale: "en", direction: "ltr", timeZone: "UTC" },
  });
  return { request: new Request("https://app.example/items/ams?x=1", init), context };
}
