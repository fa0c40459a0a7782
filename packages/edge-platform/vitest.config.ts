import { defineConfig } from "vitest/config";

// The platform's own suites (npm run test:platform at the root runs them, with the browser tests): kept apart
// from the fixture's vite.config.ts, they run in Node, not through the app's Vite plugins.
export default defineConfig({
  test: {
    // One file per core, Vitest's default (`maxWorkers` left out), but for the workerd suite (below). Measured
    // alone, 2026-11-30: the unit suite 30-32 CPU seconds with two at once, 34-38 with four, and no slower.
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
          // Four files at once: its files mostly wait on workerd, and the suite is on the longest lane of `npm test`
          // (scripts/test-all.ts), where its time counts whole. In a clean-clone run (2026-11-30) it took 231 s with
          // two at once and 145 s with four, for 10-25% more CPU (109-127 CPU seconds against 95-98, alone).
          maxWorkers: 4,
          // Its own group, after the unit suite's: Vitest runs projects with different `maxWorkers` in separate groups.
          sequence: { groupOrder: 1 },
          environment: "node",
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
    ],
  },
});
