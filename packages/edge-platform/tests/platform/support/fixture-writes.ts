import type { WorkerdStructuredLog } from "miniflare";

/**
 * The fixture's accepted posts to /messages, counted from their `fixture_write` log lines
 * (packages/edge-platform/fixture/README.md): what a product's tests read from its database to see that a refused
 * request stored nothing. Give `onLog` to serveBuild (or call it from the suite's own).
 */
export function fixtureWrites() {
  let count = 0;
  return {
    onLog(log: WorkerdStructuredLog) {
      if (log.message.includes('"event":"fixture_write"')) count++;
    },
    /** The count once the Worker's lines have arrived: workerd hands them over after the response. */
    async settled(): Promise<number> {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return count;
    },
  };
}
