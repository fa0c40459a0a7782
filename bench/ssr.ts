/**
 * npm run bench:ssr: throughput and p50/p99 latency of a dynamic page, a static page, a static page's
 * data under a dynamic route segment and a page-data request, served by the production build in workerd on 127.0.0.1 (no development proxy), under
 * autocannon (fixed duration and connections). Three configurations run interleaved, round after round:
 * the baseline (same app, plain React Router handler), the platform, and the platform with reporting on
 * (DSN set, envelopes to a local stand-in). Reports medians over rounds and ratios against the baseline.
 * The baseline has no `run_worker_first` rules, so it serves static pages as plain assets: for them the
 * ratio is the cost of the Worker serving them with their policy (packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md).
 * BENCH_BEFORE=<a copy of an earlier build directory> adds that build, without and with a DSN, to the same
 * interleaved rounds ("before", "before+dsn"): a change's before/after from one run on one machine.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { serveBuild } from "edge-platform/local-server";
import { reportingVars, startIngestStandIn } from "edge-platform/testing";
import { BASELINE_BUILD_DIRECTORY, buildBaseline } from "./build-baseline.ts";
import { median, medianDifference } from "./stats.ts";
import { benchBuild } from "./subject.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = 16;
const ALL_TARGETS = [
  ["dynamic page", "/now"],
  ["static page", "/about"],
  ["static data", "/glossary/edge.data"],
  ["page data", "/items/ams.data"],
] as const;
/** BENCH_TARGETS="static page,static data" measures only those (more rounds in the same time). */
const WANTED = process.env.BENCH_TARGETS?.split(",").map((name) => name.trim());
const TARGETS = ALL_TARGETS.filter(([name]) => !WANTED || WANTED.includes(name));
const BEFORE = process.env.BENCH_BEFORE;

// The product's build, or the platform's fixture on a product without these pages; the baseline is the same app.
const measured = await benchBuild(ALL_TARGETS.map(([, path]) => path));
await buildBaseline(measured);
const ingest = await startIngestStandIn();
const runtimes: Record<string, number> = {};
const servers: Record<string, Awaited<ReturnType<typeof serveBuild>>> = {
  baseline: await serveWithRuntime("baseline", { buildDirectory: BASELINE_BUILD_DIRECTORY, onLog: () => {} }),
  platform: await serveWithRuntime("platform", { buildDirectory: measured, onLog: () => {} }),
  reporting: await serveWithRuntime("reporting", {
    buildDirectory: measured,
    vars: reportingVars(ingest),
    onLog: () => {},
  }),
  ...(BEFORE && {
    before: await serveWithRuntime("before", { buildDirectory: BEFORE, onLog: () => {} }),
    "before+dsn": await serveWithRuntime("before+dsn", {
      buildDirectory: BEFORE,
      vars: reportingVars(ingest),
      onLog: () => {},
    }),
  }),
};
type Config = string;
type Sample = { rps: number; p50: number; p99: number; non2xx: number; errors: number; cpuUs: number };

/**
 * Serves a build and notes its workerd process, whose CPU time per request is the figure a loaded
 * machine disturbs least (req/s falls with whatever else runs; CPU per request hardly does).
 */
async function serveWithRuntime(config: string, options: Parameters<typeof serveBuild>[0]) {
  const before = new Set(childProcesses());
  // The Worker is measured, not the local server: the Workers Cache emulation (Node, in front of the app
  // when the build enables the cache) stays out of every configuration, as the baseline's build has none.
  const served = await serveBuild({ ...options, workersCache: { enabled: false } });
  const runtime = childProcesses().find((pid) => !before.has(pid));
  if (runtime !== undefined) runtimes[config] = runtime;
  return served;
}

function childProcesses(): number[] {
  const out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes("workerd"))
    .map((line) => Number.parseInt(line, 10));
}

/** User + system CPU time of a process (all its threads) in microseconds, from /proc (Linux). */
function cpuMicroseconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ", in 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
const samples = new Map<string, Sample[]>();

try {
  for (const [, server] of Object.entries(servers)) {
    for (const [, path] of TARGETS)
      await autocannon({ url: new URL(path, server.url).href, duration: 1, connections: 4 });
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [, path] of TARGETS) {
      for (const [config, server] of Object.entries(servers)) {
        const cpuBefore = cpuMicroseconds(runtimes[config]);
        const result = await autocannon({
          url: new URL(path, server.url).href,
          duration: DURATION_S,
          connections: CONNECTIONS,
        });
        const cpuUs = (cpuMicroseconds(runtimes[config]) - cpuBefore) / result.requests.total;
        const key = `${config} ${path}`;
        samples.set(key, [
          ...(samples.get(key) ?? []),
          {
            rps: result.requests.average,
            p50: result.latency.p50,
            p99: result.latency.p99,
            non2xx: result.non2xx,
            errors: result.errors,
            cpuUs,
          },
        ]);
      }
    }
  }
} finally {
  for (const server of Object.values(servers)) await server.close();
  await ingest.close();
}

const summary = (config: Config, path: string) => {
  const runs = samples.get(`${config} ${path}`) ?? [];
  return {
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    cpuUs: median(runs.map((run) => run.cpuUs)),
  };
};

console.log(`\n${ROUNDS} interleaved rounds of ${DURATION_S} s, ${CONNECTIONS} connections, medians:`);
console.log(
  "target          config     req/s    p50 ms  p99 ms  non-2xx+errors  req/s vs baseline  workerd CPU us/req",
);
const lines: string[] = [];
for (const [name, path] of TARGETS) {
  const base = summary("baseline", path);
  for (const config of Object.keys(servers) as Config[]) {
    const s = summary(config, path);
    const ratio = s.rps / base.rps;
    console.log(
      `${name.padEnd(15)} ${config.padEnd(10)} ${s.rps.toFixed(0).padStart(6)} ${s.p50.toFixed(1).padStart(8)} ${s.p99.toFixed(1).padStart(7)} ${String(s.failures).padStart(15)}  ${ratio.toFixed(3).padStart(17)}  ${s.cpuUs.toFixed(0).padStart(18)}`,
    );
  }
  if (BEFORE) {
    // A change's cost: the difference of medians, round by round paired (both ran in the same round), with its
    // 95% interval; an interval that holds 0 says the run did not resolve one.
    const rounds = (config: Config) => samples.get(`${config} ${path}`) ?? [];
    const cpu = medianDifference(
      rounds("platform").map((run) => run.cpuUs),
      rounds("before").map((run) => run.cpuUs),
    );
    const rps = medianDifference(
      rounds("platform").map((run) => run.rps),
      rounds("before").map((run) => run.rps),
    );
    console.log(
      `${name.padEnd(15)} platform - before: CPU ${cpu.difference.toFixed(0)} us/req [${cpu.low.toFixed(0)}, ${cpu.high.toFixed(0)}], ${rps.difference.toFixed(0)} req/s [${rps.low.toFixed(0)}, ${rps.high.toFixed(0)}] (95%, ${cpu.rounds} paired rounds)`,
    );
    lines.push(
      `${name} before ${(summary("before", path).rps / base.rps).toFixed(2)}x, before+dsn ${(summary("before+dsn", path).rps / base.rps).toFixed(2)}x (CPU ${summary("before", path).cpuUs.toFixed(0)} / ${summary("before+dsn", path).cpuUs.toFixed(0)} us)`,
    );
  }
  lines.push(
    `${name} platform ${(summary("platform", path).rps / base.rps).toFixed(2)}x, reporting ${(summary("reporting", path).rps / base.rps).toFixed(2)}x of baseline req/s (CPU ${base.cpuUs.toFixed(0)} / ${summary("platform", path).cpuUs.toFixed(0)} / ${summary("reporting", path).cpuUs.toFixed(0)} us)`,
  );
}
console.log(`\nssr: ${lines.join("; ")}`);
