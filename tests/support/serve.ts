/**
 * Serves the production build in workerd until interrupted: `node tests/support/serve.ts [--port N] [--test]`.
 * `--test` mounts the reference failure routes (what the e2e suite runs against).
 */
import { parseArgs } from "node:util";
import { serveBuild, TEST_VARS } from "./serve-build.ts";

const { values } = parseArgs({
  options: { port: { type: "string", default: "8787" }, test: { type: "boolean", default: false } },
});
const served = await serveBuild({ port: Number(values.port), vars: values.test ? TEST_VARS : {} });
console.log(`Serving the production build at ${served.url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    served.close().finally(() => process.exit(0));
  });
}
