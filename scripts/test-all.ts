import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { warningsNobodyCanActOn } from "../tests/scripts/run-script.ts";
import { A_STATIC_PAGE } from "../tests/support/product-pages.ts";

/**
 * `npm test`: every suite, each reported with its outcome and time, and a failure at the end if any failed. One
 * `&&` chain stopped at the first failing step, so one flaky test hid every suite after it; here a failure is
 * reported and the rest still run. A suite that needs a step which failed (the build, say) is reported as not run
 * rather than run into a confusing second failure.
 *
 * The suites come in two lanes, run side by side. The main lane holds the checkout's suites, which share its build
 * and its generated types, one at a time, then `test:boundary` in a copy of its own. The side lane holds
 * `test:create-product`, a product made in a folder outside this one, which shares no file with them and spends
 * much of its time installing packages, then the checkout's script tests, once the build they serve is there.
 * Measured in clean clones, 2026-11-29, with create-product alone in the side lane: the checkout's suites took 241 s
 * alone and 282 s with it beside them, and it took 125 s alone, 204 s beside. On this two-core machine the browser
 * suites take the whole CPU, so two of them side by side gain nothing (873 s with the boundary beside the
 * checkout's suites, every suite two to three times slower, against about 900 s one after the other; tried again
 * 2026-11-29 with the boundary from the start and create-product and the script tests after the checkout's suites:
 * those took 395 s, create-product 272 s, and at 667 s the boundary and the script tests still ran); the lanes
 * are drawn so that a browser suite meets lighter work (681 s in all). That makes every test slower, so no test's
 * time limit measures speed (benchmarks do, under bench/): a limit catches a hang, with room for a busy machine (a
 * server start 90 s, a browser test 60 s, a wait for the page 10 s).
 *
 * A suite's output is printed whole when it ends (two lanes' lines interleaved were unreadable), after a line when
 * it starts. `npm test -- test:e2e test:worker` runs only the named suites, as they are (build first if the build is
 * stale).
 */
type Suite = {
  /** The npm script it runs. */
  script: string;
  /** Steps that must have passed for this one to mean anything. */
  needs?: readonly string[];
  /** What is wrong with its output, if anything, when it passed: it then fails. */
  check?: (output: string) => string | undefined;
};

/**
 * The build prints nothing a newcomer cannot act on (WARNINGS_NOBODY_CAN_ACT_ON in tests/scripts/run-script.ts):
 * checked on the build `npm test` makes anyway, where a test of its own cost a second whole build (44 s).
 */
function quietBuild(output: string): string | undefined {
  if (!output.includes(`Prerender (html): ${A_STATIC_PAGE} `))
    return `the build did not say it pre-rendered ${A_STATIC_PAGE}`;
  const warnings = warningsNobodyCanActOn(output);
  return warnings.length > 0 ? `it printed warnings nobody can act on:\n${warnings.join("\n")}` : undefined;
}

/** The checkout's suites, in the order they run: the quick checks first, the browser suites last but one. */
const CHECKOUT_LANE: readonly Suite[] = [
  { script: "typecheck" },
  { script: "lint" },
  { script: "build", check: quietBuild },
  { script: "test:unit" },
  { script: "test:worker", needs: ["build"] },
  { script: "test:e2e", needs: ["build"] },
  { script: "deploy:check", needs: ["build"] },
];

/** After the checkout's suites, in the same lane. */
const BOUNDARY: Suite = {
  // In a copy of this repository: the step that replaces the reference product with one page, a page added, the
  // product's suites there (typecheck to deploy:check), and beside them the platform's own
  // suite (type-check, lint, unit, workerd, Chromium) against its fixture: it needs nothing of the reference's.
  script: "test:boundary",
};

/** Beside the main lane. */
const SIDE_LANE: readonly Suite[] = [
  // A product repository made by `npm run create-product` outside this one: npm ci, test, start, dev.
  { script: "test:create-product" },
  // The checkout's npm scripts as a developer runs them (mostly process starts): here, where the lane is idle after
  // create-product, rather than before the boundary. It serves the checkout's build, and it is the only suite that
  // opens the checkout's local database (the browser and Worker suites use one in memory).
  { script: "test:scripts", needs: ["build"] },
];

const MAIN_LANE: readonly Suite[] = [...CHECKOUT_LANE, BOUNDARY];
const SUITES = [...MAIN_LANE, ...SIDE_LANE];

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
    const child = spawn("npm", ["run", script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
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
if (chosen.some((script) => !SUITES.some((suite) => suite.script === script))) {
  console.error(`Unknown suite. The suites: ${SUITES.map((suite) => suite.script).join(", ")}`);
  process.exit(2);
}
const lanes = [MAIN_LANE, SIDE_LANE].map((lane) =>
  chosen.length === 0 ? lane : lane.filter((suite) => chosen.includes(suite.script)),
);

const outcomes: Outcome[] = [];
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

/** Each scheduled suite's end, so that a suite in one lane can wait for what it needs from the other. */
const ended = new Map<string, { promise: Promise<void>; resolve: () => void }>(
  lanes.flat().map((suite) => {
    const { promise, resolve } = Promise.withResolvers<void>();
    return [suite.script, { promise, resolve }];
  }),
);

async function runLane(lane: readonly Suite[]): Promise<void> {
  for (const suite of lane) {
    await Promise.all((suite.needs ?? []).map((need) => ended.get(need)?.promise));
    const failedNeed = suite.needs?.find((need) =>
      outcomes.some((outcome) => outcome.script === need && outcome.result !== "passed"),
    );
    if (failedNeed) {
      outcomes.push({ script: suite.script, result: "not run", seconds: 0, note: `${failedNeed} failed` });
      ended.get(suite.script)?.resolve();
      continue;
    }
    console.log(`\n── npm run ${suite.script}: started at ${elapsed()} ──`);
    const start = performance.now();
    const { code, output: printed } = await run(suite.script);
    const problem = code === 0 ? suite.check?.(printed) : undefined;
    const output = problem === undefined ? printed : `${printed}\n${suite.script}: ${problem}`;
    const passed = code === 0 && problem === undefined;
    const outcome: Outcome = {
      script: suite.script,
      result: passed ? "passed" : "failed",
      seconds: (performance.now() - start) / 1000,
      output: passed ? undefined : output,
    };
    outcomes.push(outcome);
    ended.get(suite.script)?.resolve();
    console.log(`\n── npm run ${suite.script}: ${outcome.result} at ${elapsed()} ──\n${output}`);
  }
}

await Promise.all(lanes.map(runLane));

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
