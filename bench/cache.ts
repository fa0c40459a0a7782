/**
 * npm run bench:cache: shared pages behind Workers Cache (packages/edge-platform/docs/caching.md; locally the local server's
 * emulation). The fixture's page whose loader takes 100 ms (a far database), rendered on every request
 * (/slow), answered from the cache (/slow/cached, a hit), missing it on every request (/slow/cached with a
 * query of its own each time: render, shape and store) and a pre-rendered static page served by the Worker
 * (/about), all from one fixture build in workerd on 127.0.0.1, under autocannon, interleaved round after
 * round. Reports medians: req/s, p50/p99 latency and the workerd process's CPU per request, with ratios
 * against the cache hit; then a stampede: 50 concurrent requests right after a purge, and how many renders
 * they cost. A hit is answered by the cache in front of the Worker (on Cloudflare, no Worker CPU at all).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { serveBuild } from "edge-platform/local-server";
import { FIXTURE_BUILD_DIRECTORY } from "edge-platform/testing";
import { median } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
const CONNECTIONS = 16;
const TARGETS = [
  ["uncached 100 ms", "/slow"],
  ["cache hit", "/slow/cached"],
  ["cache miss", "/slow/cached?miss"],
  ["static page", "/about"],
] as const;
const STAMPEDE = 50;

const before = new Set(workerdProcesses());
const server = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, onLog: () => {} });
const runtime = workerdProcesses().find((pid) => !before.has(pid));

function workerdProcesses(): number[] {
  const out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes("workerd"))
    .map((line) => Number.parseInt(line, 10));
}

/** User + system CPU time of the workerd process in microseconds, from /proc (Linux). */
function cpuMicroseconds(): number {
  if (runtime === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${runtime}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

type Sample = { rps: number; p50: number; p99: number; failures: number; cpuUs: number };
let stampedeRenders = Number.NaN;
let stampedeAnswers = 0;
const samples = new Map<string, Sample[]>();
const statuses = new Map<string, string>();

try {
  // Warm up, and check that the cached page is answered from the cache before measuring it.
  for (const [, path] of TARGETS) await autocannon({ url: new URL(path, server.url).href, duration: 1 });
  for (const [name, path] of TARGETS) {
    const url = new URL(name === "cache miss" ? `${path}=probe` : path, server.url);
    statuses.set(name, (await fetch(url)).headers.get("cf-cache-status") ?? "none");
  }
  if (statuses.get("cache hit") !== "HIT") {
    throw new Error(`/slow/cached is not a cache hit: ${statuses.get("cache hit")}`);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, path] of TARGETS) {
      const cpuBefore = cpuMicroseconds();
      let n = 0;
      const result = await autocannon({
        url: new URL(path, server.url).href,
        duration: DURATION_S,
        connections: CONNECTIONS,
        // A miss every time: a query of its own per request (the key is the whole URL).
        ...(name === "cache miss" && {
          requests: [{ setupRequest: (request) => ({ ...request, path: `${path}=${round}-${n++}` }) }],
        }),
      });
      samples.set(name, [
        ...(samples.get(name) ?? []),
        {
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          failures: result.non2xx + result.errors,
          cpuUs: (cpuMicroseconds() - cpuBefore) / result.requests.total,
        },
      ]);
    }
  }
  const cache = server.workersCache;
  if (!cache) throw new Error("the build does not enable Workers Cache ([cache] in wrangler.toml)");
  // Requests the load left under way finish first: every origin fetch counted below is the stampede's.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await cache.purge({ tags: ["slow"] });
  const rendersBefore = cache.stats().originFetches;
  const stampede = await Promise.all(
    Array.from({ length: STAMPEDE }, () => fetch(new URL("/slow/cached", server.url)).then((r) => r.text())),
  );
  stampedeRenders = cache.stats().originFetches - rendersBefore;
  stampedeAnswers = stampede.length;
} finally {
  await server.close();
}

function summary(name: string) {
  const runs = samples.get(name) ?? [];
  return {
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    cpuUs: median(runs.map((run) => run.cpuUs)),
  };
}

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(", ");
console.log(
  `\n${ROUNDS} interleaved rounds of ${DURATION_S} s, ${CONNECTIONS} connections, medians; load ${load}`,
);
console.log("target           req/s   p50 ms  p99 ms  failures  workerd CPU us/req  cf-cache-status");
for (const [name] of TARGETS) {
  const s = summary(name);
  console.log(
    `${name.padEnd(15)} ${s.rps.toFixed(0).padStart(6)} ${s.p50.toFixed(1).padStart(8)} ${s.p99.toFixed(1).padStart(7)} ${String(s.failures).padStart(9)}  ${s.cpuUs.toFixed(0).padStart(18)}  ${statuses.get(name)}`,
  );
}
const hit = summary("cache hit");
const uncached = summary("uncached 100 ms");
const miss = summary("cache miss");
const staticPage = summary("static page");
console.log(
  `\ncache: hit ${(hit.rps / uncached.rps).toFixed(1)}x the uncached req/s, ${(hit.rps / staticPage.rps).toFixed(2)}x a static page's req/s, miss ${(miss.rps / uncached.rps).toFixed(2)}x the uncached req/s; CPU per request ${hit.cpuUs.toFixed(0)} us (hit) / ${staticPage.cpuUs.toFixed(0)} us (static) / ${miss.cpuUs.toFixed(0)} us (miss) / ${uncached.cpuUs.toFixed(0)} us (uncached); stampede: ${stampedeAnswers} concurrent requests after a purge, ${stampedeRenders} render(s); load ${load}`,
);
