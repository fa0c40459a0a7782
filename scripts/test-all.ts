import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

/**
 * `npm test`: every suite, one after another (two browser suites side by side, STAGES), each reported with its
 * outcome and time, and a failure at the end if any failed. One `&&` chain stopped at the first failing step, so one flaky test hid every suite after it;
 * here a failure is reported and the rest still run. A suite that needs a step which failed (the build, say) is
 * reported as not run rather than run into a confusing second failure.
 *
 * `npm test -- test:e2e test:dev` runs only the named suites, as they are (build first if the build is stale).
 */
type Suite = {
  /** The npm script it runs. */
  script: string;
  /** Steps that must have passed for this one to mean anything. */
  needs?: readonly string[];
};

/**
 * In the order they run: the quick checks first, the browser suites last but one. A group runs its suites at the
 * same time: the product's browser suites spend most of their time waiting on pages, not on the CPU (about 75%
 * of one core for test:e2e, 40% for test:dev, on two cores), and share nothing (test:e2e serves the built app
 * with an in-memory database, test:dev runs Vite on the sources with the local one). Each one's output is printed
 * whole when it ends.
 */
const STAGES: readonly (Suite | readonly Suite[])[] = [
  { script: "typecheck" },
  { script: "lint" },
  { script: "build" },
  // The platform's own suite (type-check, lint, unit, workerd, Chromium) against its fixture, in a copy of this
  // repository whose product is one page: it needs nothing of this product's.
  { script: "test:boundary" },
  { script: "test:unit" },
  { script: "test:worker", needs: ["build"] },
  [{ script: "test:e2e", needs: ["build"] }, { script: "test:dev" }],
  { script: "test:scripts" },
  { script: "deploy:check", needs: ["build"] },
];

type Outcome = {
  script: string;
  result: "passed" | "failed" | "not run";
  seconds: number;
  note?: string;
  output?: string;
};

/**
 * What a failed suite said, repeated under the table at the end: CI keeps only the tail of a run's output, and
 * without this a failure early in a long run showed which suite failed but not which test or why.
 */
const FAILURE_LINE =
  /(\bFAIL\b|✘|×|\bfailed\b|Error\b|Expected|Received|Timed out|Timeout|exceeded|exit code|✗)/;
const FAILURE_LINES_KEPT = 40;
const LAST_LINES_KEPT = 25;

/** Runs `npm run <script>`; its output goes on the terminal as it comes, or, `buffered`, whole at the end. */
function run(script: string, buffered = false): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      if (!buffered) to.write(chunk);
      output += chunk.toString();
    };
    child.stdout.on("data", (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on("data", (chunk: Buffer) => keep(chunk, process.stderr));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
    child.on("error", () => resolve({ code: 1, output }));
  });
}

/** The failure lines of a suite's output and its last lines, without terminal colours. */
function failureSummary(output: string): string {
  const lines = stripVTControlCharacters(output).split("\n");
  const failures = lines.filter((line) => FAILURE_LINE.test(line)).slice(0, FAILURE_LINES_KEPT);
  return [...failures, "…", ...lines.slice(-LAST_LINES_KEPT)].join("\n");
}

const chosen = process.argv.slice(2);
const ALL = STAGES.flat();
const stages = STAGES.map((stage) =>
  (Array.isArray(stage) ? stage : [stage]).filter(
    (suite: Suite) => chosen.length === 0 || chosen.includes(suite.script),
  ),
).filter((stage) => stage.length > 0);
if (chosen.some((script) => !ALL.some((suite) => suite.script === script))) {
  console.error(`Unknown suite. The suites: ${ALL.map((suite) => suite.script).join(", ")}`);
  process.exit(2);
}

const outcomes: Outcome[] = [];
const started = performance.now();

async function runSuite(suite: Suite, together: boolean): Promise<Outcome> {
  const failedNeed = suite.needs?.find((need) =>
    outcomes.some((outcome) => outcome.script === need && outcome.result !== "passed"),
  );
  if (failedNeed)
    return { script: suite.script, result: "not run", seconds: 0, note: `${failedNeed} failed` };
  if (!together) console.log(`\n── npm run ${suite.script} ──`);
  const start = performance.now();
  const { code, output } = await run(suite.script, together);
  if (together) console.log(`\n── npm run ${suite.script} (beside another suite) ──\n${output}`);
  return {
    script: suite.script,
    result: code === 0 ? "passed" : "failed",
    seconds: (performance.now() - start) / 1000,
    output: code === 0 ? undefined : output,
  };
}

for (const stage of stages) {
  const together = stage.length > 1;
  if (together) console.log(`\n── at the same time: ${stage.map((suite) => suite.script).join(", ")} ──`);
  outcomes.push(...(await Promise.all(stage.map((suite) => runSuite(suite, together)))));
}

for (const { script, output } of outcomes) {
  if (output === undefined) continue;
  console.log(`\n── what npm run ${script} said of its failure ──\n${failureSummary(output)}`);
}

const total = (performance.now() - started) / 1000;
const width = Math.max(...outcomes.map((outcome) => outcome.script.length));
console.log("\n── npm test: every suite ──");
for (const { script, result, seconds, note } of outcomes) {
  console.log(
    `${script.padEnd(width)}  ${result.padEnd(7)}  ${seconds.toFixed(0).padStart(4)} s${note ? `  (${note})` : ""}`,
  );
}
const failed = outcomes.filter((outcome) => outcome.result !== "passed");
console.log(
  `${"total".padEnd(width)}  ${failed.length === 0 ? "passed " : "FAILED "}  ${total.toFixed(0).padStart(4)} s`,
);
if (failed.length > 0) {
  console.error(`\nFailed or not run: ${failed.map((outcome) => outcome.script).join(", ")}`);
  process.exitCode = 1;
}
