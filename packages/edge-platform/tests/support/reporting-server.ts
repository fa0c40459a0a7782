import { afterAll, beforeAll, beforeEach } from "vitest";
import type { ServedBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import type { IngestStandIn } from "../../src/testing/ingest-stand-in.ts";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

/**
 * For a workerd test file that reads what reaches Sentry: the fixture app served once for the file with
 * reporting on (`vars` over the reporting variables), its reports sent to a fresh ingest stand-in that is
 * emptied before each test. The browser specs' equivalent is reporting-fixture.ts.
 */
export function servedWithReporting(vars: Record<string, string>): {
  readonly app: ServedBuild;
  readonly ingest: IngestStandIn;
} {
  let served: { app: ServedBuild; ingest: IngestStandIn } | undefined;
  beforeAll(async () => {
    served = await serveWithIngest({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars });
  });
  afterAll(async () => {
    await served?.app.close();
    await served?.ingest.close();
  });
  beforeEach(() => {
    if (served) served.ingest.received.length = 0;
  });
  const started = () => {
    if (!served) throw new Error("the served app is used before the file's beforeAll ran");
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
