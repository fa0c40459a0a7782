import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler, RouterContextProvider } from "react-router";
// biome-ignore lint/style/noRestrictedImports: the baseline sets the platform's per-request context without its steps, which no entry point offers (a product never needs to).
import { platformConfig } from "../../packages/edge-platform/src/config.server";
// biome-ignore lint/style/noRestrictedImports: the baseline sets the platform's per-request context without its steps, which no entry point offers (a product never needs to).
import { createRequestErrors } from "../../packages/edge-platform/src/errors/request-errors";
// biome-ignore lint/style/noRestrictedImports: the baseline sets the platform's per-request context without its steps, which no entry point offers (a product never needs to).
import { requestContext } from "../../packages/edge-platform/src/request-context";
// biome-ignore lint/style/noRestrictedImports: the baseline sets the platform's per-request context without its steps, which no entry point offers (a product never needs to).
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
