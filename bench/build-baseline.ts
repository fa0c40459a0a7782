import { execFileSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

/** Where the benchmarks' baseline build goes (git-ignored). */
export const BASELINE_BUILD_DIRECTORY = resolve(import.meta.dirname, "../build-bare");
const DEPLOY_POINTER = resolve(import.meta.dirname, "../.wrangler/deploy/config.json");

/**
 * Builds the same app behind a plain React Router handler (bench/bare). The Vite plugin points wrangler's
 * deploy config at the last build; that pointer is put back so `wrangler deploy` still ships the real one.
 */
export async function buildBaseline(): Promise<void> {
  const pointer = await readFile(DEPLOY_POINTER, "utf8").catch(() => undefined);
  try {
    execFileSync("npx", ["react-router", "build"], {
      stdio: "ignore",
      env: {
        ...process.env,
        BUILD_DIRECTORY: BASELINE_BUILD_DIRECTORY,
        WRANGLER_CONFIG: "bench/bare/wrangler.toml",
      },
    });
  } finally {
    if (pointer === undefined) await rm(DEPLOY_POINTER, { force: true });
    else await writeFile(DEPLOY_POINTER, pointer);
  }
}
