import type { test as specTest } from "../../src/testing/playwright";
import { type ServedWithReporting, servedWithIngestForFile } from "./reporting-served.ts";
import { SERVER_START_TIMEOUT_MS } from "./server-start.ts";

export type ReportingFixture = ServedWithReporting;

/**
 * For a browser spec file that reads what reaches Sentry (reporting-served.ts), with the spec's own hooks.
 * The file's tests run one after another (they share the stand-in).
 */
export function fixtureWithReporting(test: typeof specTest, vars: Record<string, string>): ReportingFixture {
  test.describe.configure({ mode: "serial" });
  return servedWithIngestForFile(
    {
      beforeAll: (run) =>
        test.beforeAll(async () => {
          test.setTimeout(SERVER_START_TIMEOUT_MS);
          await run();
        }),
      afterAll: (run) => test.afterAll(run),
      beforeEach: (run) => test.beforeEach(run),
    },
    vars,
  );
}
