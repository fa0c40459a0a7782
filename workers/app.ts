import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { withServerErrorDigests } from "../app/platform/errors/with-error-digests.server";
import { requestPlatform } from "../app/platform/request-context";

// Created once per isolate: React Router derives its route tables here, not on every request.
const handleAppRequest = createRequestHandler(withServerErrorDigests(serverBuild), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const context = new RouterContextProvider();
    context.set(requestPlatform, { env, ctx, nonce: createNonce() });
    return handleAppRequest(request, context);
  },
} satisfies ExportedHandler<Env>;

/** 128 random bits; created per request (Workers forbid random values at global scope). */
function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
