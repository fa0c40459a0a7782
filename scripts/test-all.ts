import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

/**
 * `npm test`: every suite, one after another, each reported with its outcome and time, and a failure at the end
 * if any failed. One `&&` chain stopped at the first failing step, so one flaky test hid every suite after it;
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

/** In the order they run: the quick checks first, the browser suites last but one. */
const SUITES: readonly Suite[] = [
  { script: "typecheck" },
  { script: "lint" },
  { script: "build" },
  // The platform's own suite (type-check, lint, unit, workerd, Chromium) against its fixture, in a copy of this
  // repository whose product is one page: it needs nothing of this product's.
  { script: "test:boundary" },
  { script: "test:unit" },
  { script: "test:worker", needs: ["build"] },
  { script: "test:e2e", needs: ["build"] },
  { script: "test:dev" },
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

function run(script: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", script], { stdio: ["inherit", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      to.write(chunk);
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
const suites = chosen.length === 0 ? SUITES : SUITES.filter((suite) => chosen.includes(suite.script));
if (chosen.length > 0 && suites.length !== chosen.length) {
  console.error(`Unknown suite. The suites: ${SUITES.map((suite) => suite.script).join(", ")}`);
  process.exit(2);
}

const outcomes: Outcome[] = [];
const started = performance.now();
for (const suite of suites) {
  const failedNeed = suite.needs?.find((need) =>
    outcomes.some((outcome) => outcome.script === need && outcome.result !== "passed"),
  );
  if (failedNeed) {
    outcomes.push({ script: suite.script, result: "not run", seconds: 0, note: `${failedNeed} failed` });
    continue;
  }
  console.log(`\n── npm run ${suite.script} ──`);
  const start = performance.now();
  const { code, output } = await run(suite.script);
  outcomes.push({
    script: suite.script,
    result: code === 0 ? "passed" : "failed",
    seconds: (performance.now() - start) / 1000,
    output: code === 0 ? undefined : output,
  });
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
