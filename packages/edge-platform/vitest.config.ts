import { defineConfig } from "vitest/config";

// The platform's own suites (npm run test:platform at the root runs them, with the browser tests): kept apart
// from the fixture's vite.config.ts, they run in Node, not through the app's Vite plugins.
export default defineConfig({
  test: {
    // Four files at once on two cores: the suites mostly wait on workerd and local servers, not the CPU, so
    // running several at once shortens a run without starving any.
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          // The property-based files run thousands of cases per test: bounded by count, not by the clock.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // Against the fixture app (fixture/, built into fixture/build): passes whatever a product's routes hold.
          name: "platform",
          include: ["tests/platform/**/*.test.ts"],
          environment: "node",
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
    ],
  },
});
