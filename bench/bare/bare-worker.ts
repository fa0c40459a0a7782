import * as serverBuild from "virtual:react-router/server-build";
import { baselineRouterContext } from "edge-platform/testing/baseline";
import type { WorkerEnv } from "edge-platform/worker";
import { createRequestHandler } from "react-router";

// The baseline of bench/ssr.ts: React Router's handler and the per-request context the app's loaders
// read, nothing else. Its deploy config (wrangler.toml beside it) declares the platform's variables itself:
// the build takes it as it is.
const handleRequest = createRequestHandler(serverBuild, import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    return handleRequest(request, baselineRouterContext(request, env, ctx));
  },
} satisfies ExportedHandler<WorkerEnv>;
