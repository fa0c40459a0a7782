/**
 * Serves the production build in workerd until interrupted: `node tests/support/serve.ts [--port N] [--test]`.
 * Storage persists in .wrangler/state (migrated by `wrangler d1 migrations apply DB --local`, see
 * `npm start`). `--test` is what the e2e suite runs against: the reference failure routes are mounted
 * and storage is a fresh, migrated in-memory database.
 */
import { parseArgs } from "node:util";
import { LOCAL_STATE_DIR, serveBuild, TEST_VARS } from "./serve-build.ts";

const { values } = parseArgs({
  options: { port: { type: "string", default: "8787" }, test: { type: "boolean", default: false } },
});
const served = await serveBuild({
  port: Number(values.port),
  ...(values.test ? { vars: TEST_VARS } : { persistTo: LOCAL_STATE_DIR }),
});
console.log(`Serving the production build at ${served.url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    served.close().finally(() => process.exit(0));
  });
}
