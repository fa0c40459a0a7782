import type { ServedBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import type { IngestStandIn } from "../../src/testing/ingest-stand-in.ts";
import type { test as specTest } from "../../src/testing/playwright";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

export type ReportingFixture = { readonly app: ServedBuild; readonly ingest: IngestStandIn };

/**
 * For a browser spec file that reads what reaches Sentry: the fixture app served once for the file with
 * reporting on (`vars` over the reporting variables), its reports sent to a fresh ingest stand-in that is
 * emptied before each test. The file's tests run one after another (they share the stand-in).
 */
export function fixtureWithReporting(test: typeof specTest, vars: Record<string, string>): ReportingFixture {
  let served: { app: ServedBuild; ingest: IngestStandIn } | undefined;
  test.describe.configure({ mode: "serial" });
  test.beforeAll(async () => {
    served = await serveWithIngest({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars });
  });
  test.afterAll(async () => {
    await served?.app.close();
    await served?.ingest.close();
  });
  test.beforeEach(() => {
    if (served) served.ingest.received.length = 0;
  });
  const started = () => {
    if (!served) throw new Error("the reporting fixture is used before the file's beforeAll ran");
    return served;
  };
  return {
    get app() {
      return started().app;
    },
    get ingest() {
      return started().ingest;
    },
  };
}
