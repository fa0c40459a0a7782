import { defineConfig } from "@playwright/test";
import { BROWSER_TEST_WORKERS, CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "edge-platform/testing";

// E2E_PORT lets several checkouts run their browser suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);

/** The product's pages in real Chromium against its production build served in workerd (`npm run test:e2e`). */
export default defineConfig({
  // The platform's own browser tests are its package's (packages/edge-platform/playwright.config.ts).
  projects: [{ name: "e2e", testDir: "tests/e2e" }],
  fullyParallel: true,
  workers: BROWSER_TEST_WORKERS,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  // Limits that catch a hang, with room for a busy machine (two cores, two suites side by side in
  // `npm test`): speed is measured by the benchmarks, not here.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace for every test cost a third of the suite's time (measured: 28 browser tests, 51 s
    // without, 69 s with); to see one, run the failing test again with `-- --trace on`.
    trace: "off",
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `node tests/support/e2e-server.ts --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
