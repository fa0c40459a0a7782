import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts: these suites run in Node, not through the app's Vite plugins.
export default defineConfig({
  test: {
    // One file per core, Vitest's default (`maxWorkers` left out): four at once on two cores cost more CPU for no
    // shorter run. Measured alone, 2026-11-30: the Worker suite 37-39 CPU seconds with two at once, 46-55 with four,
    // and no slower.
    // Each file's modules are not imported afresh for it (the platform's suites measured 40% faster so): no file
    // leaves state behind.
    isolate: false,
    projects: [
      {
        test: {
          // The product's own; the platform's are its package's (packages/edge-platform/vitest.config.ts).
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          // The property-based files run thousands of cases per test: bounded by count, not by the clock.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "worker",
          include: ["tests/worker/**/*.test.ts"],
          environment: "node",
          // Each file starts the built Worker in workerd once (beforeAll).
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "scripts",
          include: ["tests/scripts/**/*.test.ts"],
          exclude: ["tests/scripts/create-product.test.ts"],
          environment: "node",
          // Each test runs npm scripts (wrangler, workerd) as a developer would; they bound their own time.
          testTimeout: 180_000,
        },
      },
      {
        test: {
          // A product made outside this repository (npm run create-product): it shares no file with the checkout,
          // so `npm test` runs it beside the checkout's suites (scripts/test-all.ts).
          name: "create-product",
          include: ["tests/scripts/create-product.test.ts"],
          environment: "node",
          testTimeout: 180_000,
        },
      },
    ],
  },
});
