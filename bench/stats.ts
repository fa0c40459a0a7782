export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/**
 * `a`'s median less `b`'s, with a 95% interval from a paired bootstrap: `a[i]` and `b[i]` are one round of an
 * interleaved run (loads taken one after the other, under the same machine load), so rounds are resampled
 * with replacement, both lists together, and the interval is the 2.5th to 97.5th percentile of the resampled
 * differences. Rounds where either value is NaN are dropped. The generator is seeded (mulberry32), so a run's
 * figures repeat. `noLater` counts the rounds where `a` was no later than `b`. Hand-written: the statistics
 * packages on npm have tests and intervals for one sample or two independent ones, none for a difference of
 * medians over paired rounds, which is what "no later than" in one interleaved run asks.
 */
export function medianDifference(
  a: readonly number[],
  b: readonly number[],
  { resamples = 2_000, seed = 1 }: { resamples?: number; seed?: number } = {},
): { difference: number; low: number; high: number; noLater: number; rounds: number } {
  const rounds = a
    .map((value, index) => [value, b[index] ?? Number.NaN] as const)
    .filter(([x, y]) => !Number.isNaN(x) && !Number.isNaN(y));
  const differenceOf = (pairs: readonly (readonly [number, number])[]) =>
    median(pairs.map(([x]) => x)) - median(pairs.map(([, y]) => y));
  if (rounds.length === 0)
    return { difference: Number.NaN, low: Number.NaN, high: Number.NaN, noLater: 0, rounds: 0 };
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const resampled = Array.from({ length: resamples }, () =>
    differenceOf(rounds.map(() => rounds[Math.floor(random() * rounds.length)] ?? [0, 0])),
  );
  return {
    difference: differenceOf(rounds),
    low: percentile(resampled, 2.5),
    high: percentile(resampled, 97.5),
    noLater: rounds.filter(([x, y]) => x <= y).length,
    rounds: rounds.length,
  };
}
