import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "./tests/support/chromium.ts";

// E2E_PORT lets several checkouts run their browser suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);

/** Real Chromium (tests/support/chromium.ts) against the production build served in workerd. */
export default defineConfig({
  // The product's pages (tests/e2e) and the platform's browser tests, which serve the fixture app themselves
  // (tests/platform/browser, tests/fixture/README.md).
  projects: [
    { name: "e2e", testDir: "tests/e2e" },
    { name: "platform", testDir: "tests/platform/browser" },
  ],
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `node tests/support/e2e-server.ts --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
