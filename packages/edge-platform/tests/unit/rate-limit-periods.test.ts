import { resolve } from "node:path";
import { expect, test } from "vitest";
import { deployedRateLimits, rateLimitPeriods } from "../../src/vite/rate-limits.ts";

test("the build reads each binding's period from the deploy configuration", () => {
  expect(
    rateLimitPeriods([
      { name: "A", simple: { limit: 5, period: 10 } },
      { name: "B", simple: { limit: 5 } },
    ]),
  ).toEqual({ A: 10, B: 60 });
});

test("a product's wrangler.toml without limits (the fixture's) gets the platform's three bindings, with periods the binding allows", () => {
  const periods = rateLimitPeriods(
    deployedRateLimits(resolve(import.meta.dirname, "../../fixture/wrangler.toml")),
  );
  expect(Object.keys(periods).sort()).toEqual([
    "MONITORING_RATE_LIMIT",
    "PURGE_RATE_LIMIT",
    "WRITE_RATE_LIMIT",
  ]);
  for (const period of Object.values(periods)) expect([10, 60]).toContain(period);
});
