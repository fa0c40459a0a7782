import { defineConfig } from "vitest/config";

// The platform's own suites (npm run test:platform at the root runs them, with the browser tests): kept apart
// from the fixture's vite.config.ts, they run in Node, not through the app's Vite plugins.
export default defineConfig({
  test: {
    // One file per core, Vitest's default (`maxWorkers` left out): four at once on two cores cost more CPU for no
    // shorter run where it counts. Measured alone, 2026-11-30: the platform's workerd suite 95-98 CPU seconds with
    // two, 109-127 with four; the root's Worker suite 37-39 against 46-55, and no slower. `npm test` runs two
    // suites side by side on a CPU that is already full, so the CPU is what a run waits on.
    // Each file's modules are not imported afresh for it: importing them was 29% of the workerd suite's time (107 s
    // of it, against 64 s without), and no file leaves state behind (each stops the servers it starts, and a file
    // that stubs a global restores it).
    isolate: false,
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
