import { resolve } from "node:path";
import { buildAside } from "../scripts/build-aside.ts";

/** Where the benchmarks' baseline build goes (git-ignored). */
export const BASELINE_BUILD_DIRECTORY = resolve(import.meta.dirname, "../build-bare");

/** Builds the same app behind a plain React Router handler (bench/bare). */
export async function buildBaseline(): Promise<void> {
  await buildAside(
    { BUILD_DIRECTORY: BASELINE_BUILD_DIRECTORY, WRANGLER_CONFIG: "bench/bare/wrangler.toml" },
    { quiet: true },
  );
}
