import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { platformConfig } from "../../packages/edge-platform/src/config.server";
import { createRequestErrors } from "../../packages/edge-platform/src/errors/request-errors";
import { requestContext } from "../../packages/edge-platform/src/request-context";
import { isPageDataPath } from "../../packages/edge-platform/src/single-fetch";

// The baseline of bench/ssr.ts: React Router's handler and the per-request context the app's loaders
// read, nothing else.
const handleRequest = createRequestHandler(serverBuild, import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
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
      // Not negotiated: the baseline reads no header; the platform's negotiation is part of what is measured.
      visitor: { locale: "en", direction: "ltr", timeZone: "UTC" },
    });
    return handleRequest(request, context);
  },
} satisfies ExportedHandler<Env>;
