#!/usr/bin/env node
/**
 * Serves the product's production build in workerd until interrupted, from the directory it runs in:
 * `edge-platform-serve [--port N]` (`npm run preview`; `npm start` builds first). Storage persists in .wrangler/state (migrated by
 * `wrangler d1 migrations apply DB --local`). Only loopback hosts and those in LOCAL_ALLOWED_HOSTS
 * (comma-separated) are answered.
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { allowedHostsFrom } from "./allowed-hosts.ts";
import { BUILT_WORKER_CONFIG, LOCAL_STATE_DIR, serveBuild } from "./serve-build.ts";

const { values } = parseArgs({ options: { port: { type: "string", default: "8787" } } });
if (!existsSync(BUILT_WORKER_CONFIG)) {
  console.error(
    "There is no production build to serve (build/ is empty): run `npm run build` first, or `npm start`.",
  );
  process.exit(1);
}
const served = await serveBuild({
  port: Number(values.port),
  allowedHosts: allowedHostsFrom(process.env.LOCAL_ALLOWED_HOSTS),
  persistTo: LOCAL_STATE_DIR,
});
console.log(`Serving the production build at ${served.url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    served.close().finally(() => process.exit(0));
  });
}
