import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { serveBuild } from "edge-platform/local-server";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "edge-platform/testing";
import { buildAnchorsApp } from "./anchors-app.ts";

/**
 * Which build a benchmark measures. The benchmarks load the pages of the app the Next.js anchor builds too
 * (`/`, a static `/about`, a dynamic `/now`, linked from `/`; packages/edge-platform/docs/PERFORMANCE.md) and a
 * few more kinds of page (a page with a parameter, its data). `BENCH_BUILD=<a build directory>` names one (an
 * earlier build kept with `cp -r build`, for a change's before and after). `BENCH_BUILD=anchors` names the
 * anchors' own three pages on the platform, built first (bench/anchors-app.ts: what the platform costs without
 * the product's screens). Otherwise the product's build, when it answers every path the benchmark needs; else the
 * platform's fixture (`npm run build:fixture`), which has them all, built first if it is not: a product that
 * replaced the reference (`npm run replace-reference`) still measures the platform, and is told so.
 *
 * Returns the build directory to pass to `serveBuild` (undefined: the product's, `build/`).
 */
export async function benchBuild(paths: readonly string[]): Promise<string | undefined> {
  if (process.env.BENCH_BUILD === "anchors") return buildAnchorsApp();
  if (process.env.BENCH_BUILD) return process.env.BENCH_BUILD;
  const product = await serveBuild({ vars: TEST_VARS, onLog: () => {} });
  const missing: string[] = [];
  try {
    for (const path of paths) {
      const response = await fetch(new URL(path, product.url), { redirect: "manual" });
      await response.arrayBuffer();
      if (response.status !== 200) missing.push(path);
    }
  } finally {
    await product.close();
  }
  if (missing.length === 0) return undefined;
  console.log(
    `This product's build has no ${missing.join(", ")}: measuring the platform's fixture (${FIXTURE_BUILD_DIRECTORY}).`,
  );
  if (!existsSync(FIXTURE_BUILD_DIRECTORY)) {
    // Built once, here, so that every benchmark script works as it is on a one-page product.
    console.log("It is not built yet: npm run build:fixture");
    execFileSync("npm", ["run", "build:fixture"], { stdio: ["ignore", "inherit", "inherit"] });
  }
  return FIXTURE_BUILD_DIRECTORY;
}
