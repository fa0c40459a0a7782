import type { ServedBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import type { IngestStandIn } from "../../src/testing/ingest-stand-in.ts";
import { serveWithIngest } from "../../src/testing/serve-with-ingest.ts";

export type ServedWithReporting = { readonly app: ServedBuild; readonly ingest: IngestStandIn };

/** A test runner's file-level hooks: vitest's, or a Playwright `test`'s. */
export type FileHooks = {
  beforeAll(run: () => Promise<void>): void;
  afterAll(run: () => Promise<void>): void;
  beforeEach(run: () => void): void;
};

/**
 * For a test file that reads what reaches Sentry, with either runner's hooks: the fixture app served once for
 * the file with reporting on (`vars` over the reporting variables), its reports sent to a fresh ingest
 * stand-in that is emptied before each test. reporting-server.ts (workerd tests) and reporting-fixture.ts
 * (browser specs) hand it their runner's hooks.
 */
export function servedWithIngestForFile(hooks: FileHooks, vars: Record<string, string>): ServedWithReporting {
  let served: { app: ServedBuild; ingest: IngestStandIn } | undefined;
  hooks.beforeAll(async () => {
    served = await serveWithIngest({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars });
  });
  hooks.afterAll(async () => {
    await served?.app.close();
    await served?.ingest.close();
  });
  hooks.beforeEach(() => {
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
