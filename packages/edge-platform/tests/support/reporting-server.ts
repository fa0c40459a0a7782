import { afterAll, beforeAll, beforeEach } from "vitest";
import { type ServedWithReporting, servedWithIngestForFile } from "./reporting-served.ts";

/**
 * For a workerd test file that reads what reaches Sentry (reporting-served.ts), with vitest's hooks. The
 * browser specs' equivalent is reporting-fixture.ts.
 */
export function servedWithReporting(vars: Record<string, string>): ServedWithReporting {
  return servedWithIngestForFile({ beforeAll, afterAll, beforeEach }, vars);
}
