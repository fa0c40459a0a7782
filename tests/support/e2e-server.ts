/**
 * The browser suite's server (playwright.config.ts): `node tests/support/e2e-server.ts --port N` serves the
 * production build as `npm start` does (packages/edge-platform/src/local-server/), with the reference failure routes
 * mounted and storage in a fresh, migrated in-memory database. The Worker's log lines are printed by
 * printedWorkerLog (worker-logs.ts), so a provoked failure is one labelled line.
 */
import { parseArgs } from "node:util";
import { serveBuild } from "edge-platform/local-server";
import { printedWorkerLog, TEST_VARS, UNLIMITED_FOR_TESTS, UNLIMITED_PURGES } from "edge-platform/testing";

const { values } = parseArgs({ options: { port: { type: "string", default: "4173" } } });
const served = await serveBuild({
  port: Number(values.port),
  vars: TEST_VARS,
  // The whole browser suite, in parallel, from one address: far more posts than one visitor's.
  rateLimits: UNLIMITED_FOR_TESTS,
  workersCache: UNLIMITED_PURGES,
  onLog(log) {
    const { stream, text } = printedWorkerLog(log);
    process[stream].write(`${text}\n`);
  },
});
console.log(`Serving the production build for the browser tests at ${served.url.origin}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    served.close().finally(() => process.exit(0));
  });
}
