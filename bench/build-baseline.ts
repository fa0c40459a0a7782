import { resolve } from "node:path";
import { FIXTURE_BUILD_DIRECTORY } from "edge-platform/testing";
import { buildAside } from "../scripts/build-aside.ts";

/** Where the benchmarks' baseline build goes (git-ignored). */
export const BASELINE_BUILD_DIRECTORY = resolve(import.meta.dirname, "../build-bare");

/**
 * Builds the same app behind a plain React Router handler (bench/bare): the product's, or, when the benchmark
 * measures the platform's fixture (bench/subject.ts: a product without the benchmark's pages), the fixture's
 * `app/` (APP_DIRECTORY, packages/edge-platform/src/vite/app-under-build.ts).
 */
export async function buildBaseline(measured?: string): Promise<void> {
  await buildAside(
    {
      BUILD_DIRECTORY: BASELINE_BUILD_DIRECTORY,
      WRANGLER_CONFIG: "bench/bare/wrangler.toml",
      ...(measured === FIXTURE_BUILD_DIRECTORY && {
        APP_DIRECTORY: resolve(FIXTURE_BUILD_DIRECTORY, "../app"),
      }),
    },
    { quiet: true },
  );
}
