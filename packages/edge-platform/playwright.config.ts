import { defineConfig } from "@playwright/test";
import { BROWSER_TEST_WORKERS, CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "./src/testing/chromium.ts";

/**
 * The platform's browser tests: real Chromium (src/testing/chromium.ts) against the fixture's build served in
 * workerd, one server per worker or per file (tests/platform/browser/fixture-app.ts), never a product's.
 */
export default defineConfig({
  projects: [{ name: "platform", testDir: "tests/platform/browser" }],
  fullyParallel: true,
  workers: BROWSER_TEST_WORKERS,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: "list",
  // Limits that catch a hang, with room for a busy machine (two cores, two suites side by side in
  // `npm test`): speed is measured by the benchmarks, not here.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    // Recording a trace for every test cost a third of the suite's time (measured: 28 browser tests, 51 s
    // without, 69 s with); to see one, run the failing test again with `-- --trace on`.
    trace: "off",
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
});
