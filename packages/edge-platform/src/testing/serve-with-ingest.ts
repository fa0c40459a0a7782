import { type ServeBuildOptions, type ServedBuild, serveBuild } from "../local-server/serve-build.ts";
import { TEST_VARS } from "./build-under-test.ts";
import { type IngestStandIn, startIngestStandIn, TEST_DSN } from "./ingest-stand-in.ts";

/**
 * The variables of a build that reports to a local ingest stand-in: the test variables, the test DSN (a
 * SaaS DSN, so the tunnel is on) and the stand-in's origin; `overrides` last.
 */
export function reportingVars(
  ingest: Pick<IngestStandIn, "origin">,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return { ...TEST_VARS, SENTRY_DSN: TEST_DSN, SENTRY_INGEST_TEST_ORIGIN: ingest.origin, ...overrides };
}

/**
 * Serves the build with reporting on, its reports going to a fresh ingest stand-in: `vars` are layered over
 * reportingVars; the Worker's logs are dropped unless `onLog` is given. Close both when done.
 */
export async function serveWithIngest({
  vars,
  ...options
}: ServeBuildOptions = {}): Promise<{ app: ServedBuild; ingest: IngestStandIn }> {
  const ingest = await startIngestStandIn();
  try {
    const app = await serveBuild({ onLog: () => {}, ...options, vars: reportingVars(ingest, vars) });
    return { app, ingest };
  } catch (error) {
    await ingest.close();
    throw error;
  }
}
