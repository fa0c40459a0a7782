/**
 * Serves the production build in workerd until interrupted: `node tests/support/serve.ts [--port N] [--test]`
 * (`npm run preview`; `npm start` builds first). Storage persists in .wrangler/state (migrated by
 * `wrangler d1 migrations apply DB --local`). `--test` is what the e2e suite runs against: the reference
 * failure routes are mounted and storage is a fresh, migrated in-memory database. Only loopback hosts and those in
 * LOCAL_ALLOWED_HOSTS (comma-separated) are answered.
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  allowedHostsFrom,
  BUILT_WORKER_CONFIG,
  LOCAL_STATE_DIR,
  serveBuild,
  TEST_VARS,
} from "./serve-build.ts";
import { printedWorkerLog } from "./worker-logs.ts";

const { values } = parseArgs({
  options: { port: { type: "string", default: "8787" }, test: { type: "boolean", default: false } },
});
if (!existsSync(BUILT_WORKER_CONFIG)) {
  console.error(
    "There is no production build to serve (build/ is empty): run `npm run build` first, or `npm start`.",
  );
  process.exit(1);
}
const served = await serveBuild({
  port: Number(values.port),
  allowedHosts: allowedHostsFrom(process.env.LOCAL_ALLOWED_HOSTS),
  ...(values.test
    ? {
        vars: TEST_VARS,
        onLog(log) {
          const { stream, text } = printedWorkerLog(log);
          process[stream].write(`${text}\n`);
        },
      }
    : { persistTo: LOCAL_STATE_DIR }),
});
console.log(`Serving the production build at ${served.url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    served.close().finally(() => process.exit(0));
  });
}
