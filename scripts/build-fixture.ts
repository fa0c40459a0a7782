import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { buildAside } from "./build-aside.ts";

/**
 * npm run build:fixture: builds the platform's test fixture (tests/fixture/app) with the real Worker into
 * build-fixture/, which the platform's tests serve (tests/support/build-under-test.ts, FIXTURE_BUILD_DIRECTORY).
 */
await buildAside({
  APP_DIRECTORY: "tests/fixture/app",
  BUILD_DIRECTORY: resolve(import.meta.dirname, "../build-fixture"),
});
// React Router's build writes route types for the app it builds: put the product's back for the editor and tsc.
execFileSync("npx", ["react-router", "typegen"], { stdio: "ignore" });
