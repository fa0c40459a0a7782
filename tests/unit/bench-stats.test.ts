import { describe, expect, test } from "vitest";
import { medianDifference } from "../../bench/stats";

// The statistic bench:first-paint reports against each anchor: a difference of medians over paired rounds, with
// a bootstrap interval that must say "not resolved" when the rounds do not tell the servers apart.

/** Deterministic noise: the same list each run. */
const noise = (count: number, spread: number, seed: number) =>
  Array.from({ length: count }, (_, index) => (((index + 1) * 7919 * seed) % 997) / 997).map((unit) =>
    Math.round(unit * spread),
  );

describe("medianDifference", () => {
  test("a constant shift is the difference, with an interval of that shift alone", () => {
    const b = noise(41, 200, 3).map((value) => 300 + value);
    const a = b.map((value) => value + 20);
    expect(medianDifference(a, b)).toEqual({ difference: 20, low: 20, high: 20, noLater: 0, rounds: 41 });
    expect(medianDifference(b, b)).toMatchObject({ difference: 0, low: 0, high: 0, noLater: 41 });
  });

  test("a shift far beyond the rounds' spread is resolved; one inside it is not", () => {
    const b = noise(41, 200, 3).map((value) => 300 + value);
    const far = medianDifference(
      noise(41, 200, 5).map((value) => 600 + value),
      b,
    );
    expect(far.low).toBeGreaterThan(0);
    const near = medianDifference(
      noise(41, 200, 5).map((value) => 310 + value),
      b,
    );
    expect(near.low).toBeLessThan(0);
    expect(near.high).toBeGreaterThan(0);
    expect(near.low).toBeLessThanOrEqual(near.difference);
    expect(near.high).toBeGreaterThanOrEqual(near.difference);
  });

  test("rounds with a missing value are dropped, and a seed repeats its interval", () => {
    const a = [10, Number.NaN, 30, 40, 50];
    const b = [12, 20, Number.NaN, 38, 55];
    const result = medianDifference(a, b);
    expect(result.rounds).toBe(3);
    expect(result.difference).toBe(40 - 38);
    expect(result.noLater).toBe(2);
    expect(medianDifference(a, b)).toEqual(result);
    expect(medianDifference([Number.NaN], [1]).rounds).toBe(0);
  });
});
