import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { warningsNobodyCanActOn } from "../tests/scripts/run-script.ts";
import { A_STATIC_PAGE } from "../tests/support/product-pages.ts";
import { hasReference } from "./replace-reference.ts";
import { copyRepository } from "./repository-copy.ts";

/**
 * `npm test`: every suite, each reported with its outcome and time, and a failure at the end if any failed. One
 * `&&` chain stopped at the first failing step, so one flaky test hid every suite after it; here a failure is
 * reported and the rest still run. A suite that needs a step which failed (the build, say) is reported as not run
 * rather than run into a confusing second failure.
 *
 * The suites run in two lanes, side by side. One lane starts with the checkout's suites, which share its build and
 * its generated types, one at a time (the platform package's lint, type-check and unit suite among them: they need
 * no build). The other starts with the rest of the platform's own suite (its fixture's build, then its workerd and
 * Chromium suites), in a copy of its own (it shares nothing with the product's suites, and it is the longest: its
 * Chromium tests alone about 400 s). Then each lane takes the next of the suites left (EITHER_LANE, the longest
 * first: `test:boundary`, a copy without the reference where the script tests run while the reference is here;
 * `test:create-product`, a product made in a folder outside this one; the checkout's Worker and unit suites and
 * deploy dry run) until none is left, so the lanes end within a short suite of each other. With two lanes, each
 * browser suite runs one test at a time (BROWSER_TEST_WORKERS in the package's src/testing/chromium.ts): two per
 * suite put four Chromium tests on two cores. The run waits on the CPU (94-96% busy in clean clones), so only less
 * work shortens it much. Measured in clean clones: the same work's CPU time varies by up to a fifth from run to run
 * (2026-11-30: 1,118-1,327 CPU seconds), and lanes of fixed suites ended 34-155 s apart. Arrangements that did
 * worse: two browser tests per suite (646-712 s, 2026-11-29, against 654-664 with one); the platform's suite after
 * the checkout's, which left it alone for its last five minutes (671-802 s); the boundary beside the checkout's
 * suites from the start, every suite two to three times slower (873 s).
 * Side by side, every test is slower, so no test's time limit measures speed (benchmarks do, under bench/): a limit
 * catches a hang, with room for a busy machine (a server start 90 s, a browser test 60 s, a wait for the page 10 s).
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
  /**
   * Run in a copy of the repository (scripts/repository-copy.ts), removed when it passes and kept when it fails: for a
   * suite that runs beside suites which write in the checkout (create-product packs the platform, which writes the
   * fixture's generated types; the fixture's dev server regenerates them as it starts).
   */
  inCopy?: boolean;
  /**
   * For a suite whose place depends on the reference product (scripts/replace-reference.ts), whether a bare
   * `npm test` runs it here: "while it is here" (test:boundary, which replaces it in a copy), or "once it is
   * replaced" (the script tests, which run in the boundary's copy until then). Named on the command line, a suite
   * runs either way.
   */
  reference?: "while it is here" | "once it is replaced";
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

/** The checkout's suites, in the order they run: the quick checks first, the browser suite last. */
const CHECKOUT_LANE: readonly Suite[] = [
  { script: "typecheck" },
  { script: "lint" },
  { script: "build", check: quietBuild },
  // The platform package's lint, type-check and unit suite: they need no build (test:platform:served builds its
  // fixture).
  { script: "test:platform:checks" },
  { script: "test:e2e", needs: ["build"] },
];

/** Beside the checkout's suites, from the start. */
const SIDE_LANE: readonly Suite[] = [
  // The platform's own suites against its fixture (its build, then workerd and Chromium): they need nothing of the
  // product's, and `npm run replace-reference` leaves packages/edge-platform as it is, so they are the same here as
  // in a copy without the reference.
  { script: "test:platform:served", inCopy: true },
];

/**
 * Taken, in this order (the longest first), by whichever lane is free: the lanes end within a short suite of
 * each other whatever this machine's speed that day. Fixed lanes ended 34-155 s apart from one run to the next;
 * taken so, 6 s apart (a clean clone, 2026-11-30: 702 s for 1,313 CPU seconds, where fixed lanes took 757 s for
 * 1,327).
 */
const EITHER_LANE: readonly Suite[] = [
  // In a copy of this repository: the step that replaces the reference product with one page, a page and a first
  // migration added, and the product's suites there (typecheck to deploy:check, and the script tests).
  { script: "test:boundary", reference: "while it is here" },
  // A product repository made by `npm run create-product` outside this one: npm ci, test, start, dev.
  { script: "test:create-product" },
  // The npm scripts as a developer runs them (mostly process starts). While the reference product is here they run
  // in the boundary's copy, a product after the step with a page and a migration of its own: the same scripts, with
  // a product's first migration to apply (scripts/platform-boundary.ts). The only suite that opens the local
  // database (the browser and Worker suites use one in memory).
  { script: "test:scripts", needs: ["build"], reference: "once it is replaced" },
  { script: "test:worker", needs: ["build"] },
  { script: "deploy:check", needs: ["build"] },
  { script: "test:unit" },
];

const SUITES = [...CHECKOUT_LANE, ...SIDE_LANE, ...EITHER_LANE];

type Outcome = {
  script: string;
  result: "passed" | "failed" | "not run";
  seconds: number;
  /** The CPU time its processes used (childrenCpuSeconds), where known. */
  cpuSeconds?: number;
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

/**
 * The CPU seconds used so far by this process's ended children and everything they waited for (Linux's cutime and
 * cstime in /proc/self/stat, in the kernel's USER_HZ ticks, 100 a second), or undefined where there is no /proc.
 * The run waits on the CPU, so each suite's CPU time says where to look for a shorter run: its wall time depends on
 * what the other lane ran beside it. A process its parent does not wait for is left out: Chromium's zygote and its
 * renderers, which the init process reaps. By process accounting (a clean clone, 2026-11-30), the product's browser
 * suite used about 90 CPU seconds where this counts 47, the platform's served suite about 350 where it counts 272,
 * and the whole run 865 where it counts 623 (npm ci before the tests, 34, is not a suite's).
 */
function childrenCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ").at(1)?.split(" ") ?? [];
    // Fields 16 and 17 of proc(5), counted from the state (field 3) after the command's name.
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The children's CPU time when the last suite ended: a suite's own is what was added by the time it ends (the other
 * lane's suite, still running, is not counted until it ends too). Were two suites to end before this process saw either
 * end, the first seen would be given both figures; with suites minutes long, that has not been seen.
 */
let cpuAtLastEnd = childrenCpuSeconds();

function run(script: string, cwd?: string): Promise<{ code: number; output: string; cpuSeconds?: number }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", script], {
      cwd,
      env: suiteEnvironment,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let cpuSeconds: number | undefined;
    child.on("exit", () => {
      const now = childrenCpuSeconds();
      cpuSeconds = now !== undefined && cpuAtLastEnd !== undefined ? now - cpuAtLastEnd : undefined;
      cpuAtLastEnd = now;
    });
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output, cpuSeconds }));
    child.on("error", () => resolve({ code: 1, output }));
  });
}

/** The failure lines of a suite's output and its last lines, without terminal colours. */
function failureSummary(output: string): string {
  const lines = stripVTControlCharacters(output).split("\n");
  const failures = lines.filter((line) => FAILURE_LINE.test(line)).slice(0, FAILURE_LINES_KEPT);
  return [...failures, "…", ...lines.slice(-LAST_LINES_KEPT)].join("\n");
}

const listOnly = process.argv[2] === "--list";
const chosen = process.argv.slice(listOnly ? 3 : 2);
if (chosen.some((script) => !SUITES.some((suite) => suite.script === script))) {
  console.error(`Unknown suite. The suites: ${SUITES.map((suite) => suite.script).join(", ")}`);
  process.exit(2);
}
const referenceHere = hasReference(resolve(import.meta.dirname, ".."));
/** Whether a bare `npm test` runs the suite here (see Suite.reference). */
const runsHere = (suite: Suite) =>
  suite.reference === undefined || (suite.reference === "while it is here") === referenceHere;
const scheduled = (suites: readonly Suite[]) =>
  chosen.length === 0 ? suites.filter(runsHere) : suites.filter((suite) => chosen.includes(suite.script));
const lanes = [CHECKOUT_LANE, SIDE_LANE].map(scheduled);
/** What is left for whichever lane is free (EITHER_LANE), taken from the front. */
const either = scheduled(EITHER_LANE);
// `npm test -- --list`: the suites this run would run, one per line, and nothing else (test:boundary reads it).
if (listOnly) {
  console.log([...lanes.flat(), ...either].map((suite) => suite.script).join("\n"));
  process.exit(0);
}
for (const suite of chosen.length === 0 ? SUITES.filter((suite) => !runsHere(suite)) : [])
  console.log(
    suite.reference === "while it is here"
      ? `${suite.script}: not run, the reference product is replaced here (nothing left to replace)`
      : `${suite.script}: run in test:boundary's copy, while the reference product is here`,
  );

// Two lanes at once (two suites or more to run, each lane taking the next that is left): each browser suite runs one
// test at a time (BROWSER_TEST_WORKERS in the package's src/testing/chromium.ts), the other lane's work using the
// other core.
const suiteEnvironment =
  lanes.filter((lane) => lane.length > 0).length + either.length >= 2
    ? { ...process.env, BROWSER_TESTS_SHARE_THE_CPU: "1" }
    : process.env;

const outcomes: Outcome[] = [];
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

/** Each scheduled suite's end, so that a suite in one lane can wait for what it needs from the other. */
const ended = new Map<string, { promise: Promise<void>; resolve: () => void }>(
  [...lanes.flat(), ...either].map((suite) => {
    const { promise, resolve } = Promise.withResolvers<void>();
    return [suite.script, { promise, resolve }];
  }),
);

/** A lane's own suites, then those left for either lane, one at a time, until none is left. */
async function runLane(lane: readonly Suite[]): Promise<void> {
  for (const suite of lane) await runSuite(suite);
  for (let suite = either.shift(); suite !== undefined; suite = either.shift()) await runSuite(suite);
}

async function runSuite(suite: Suite): Promise<void> {
  await Promise.all((suite.needs ?? []).map((need) => ended.get(need)?.promise));
  const failedNeed = suite.needs?.find((need) =>
    outcomes.some((outcome) => outcome.script === need && outcome.result !== "passed"),
  );
  if (failedNeed) {
    outcomes.push({ script: suite.script, result: "not run", seconds: 0, note: `${failedNeed} failed` });
    ended.get(suite.script)?.resolve();
    return;
  }
  // No colon in the copy's path: Vite cannot load a module whose path has one (test:platform:served's did).
  const copy = suite.inCopy ? copyRepository(suite.script.replaceAll(":", "-")) : undefined;
  console.log(`\n── npm run ${suite.script}: started at ${elapsed()}${copy ? `, in ${copy}` : ""} ──`);
  const start = performance.now();
  const { code, output: printed, cpuSeconds } = await run(suite.script, copy);
  const problem = code === 0 ? suite.check?.(printed) : undefined;
  const output = problem === undefined ? printed : `${printed}\n${suite.script}: ${problem}`;
  const passed = code === 0 && problem === undefined;
  const outcome: Outcome = {
    script: suite.script,
    result: passed ? "passed" : "failed",
    seconds: (performance.now() - start) / 1000,
    cpuSeconds,
    output: passed ? undefined : output,
  };
  outcomes.push(outcome);
  if (copy && passed) rmSync(copy, { recursive: true, force: true });
  else if (copy) outcome.note = `its copy kept at ${copy}`;
  ended.get(suite.script)?.resolve();
  console.log(`\n── npm run ${suite.script}: ${outcome.result} at ${elapsed()} ──\n${output}`);
}

await Promise.all(lanes.map(runLane));

for (const { script, output } of outcomes) {
  if (output === undefined) continue;
  console.log(`\n── what npm run ${script} said of its failure ──\n${failureSummary(output)}`);
}

const total = (performance.now() - started) / 1000;
const width = Math.max(...outcomes.map((outcome) => outcome.script.length));
const cpu = (seconds: number | undefined) =>
  seconds === undefined ? "" : `  ${seconds.toFixed(0).padStart(5)} CPU s`;
console.log("\n── npm test: every suite ──");
for (const { script, result, seconds, cpuSeconds, note } of outcomes) {
  console.log(
    `${script.padEnd(width)}  ${result.padEnd(7)}  ${seconds.toFixed(0).padStart(4)} s${cpu(cpuSeconds)}${note ? `  (${note})` : ""}`,
  );
}
const failed = outcomes.filter((outcome) => outcome.result !== "passed");
const totalCpu = childrenCpuSeconds();
console.log(
  `${"total".padEnd(width)}  ${failed.length === 0 ? "passed " : "FAILED "}  ${total.toFixed(0).padStart(4)} s${cpu(totalCpu)}`,
);
if (failed.length > 0) {
  console.error(`\nFailed or not run: ${failed.map((outcome) => outcome.script).join(", ")}`);
  process.exitCode = 1;
}
