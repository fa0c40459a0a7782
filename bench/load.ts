/**
 * npm run load: 60 s at 64 connections (autocannon, 127.0.0.1 only) on a mix of dynamic pages, static
 * pages, page data and tunnel posts (to the local ingest stand-in), with reporting on. Prints status
 * counts per request kind (0 unexpected statuses is the target; the 404 in the mix is intended), the
 * latency percentiles, and memory at start and end: the app isolate's V8 heap (DevTools protocol) and the
 * workerd processes' RSS. Ends with one summary line; exits 1 on an unexpected status or error.
 *
 * LOAD_SECONDS and LOAD_CONNECTIONS override the duration and connection count (e.g. for a quick run);
 * LOAD_REPORTING=off runs without a DSN (and without tunnel posts), to compare.
 */
import { execFileSync } from "node:child_process";
import autocannon from "autocannon";
import { serveBuild } from "edge-platform/local-server";
import {
  freePort,
  reportingVars,
  startIngestStandIn,
  TEST_DSN,
  TEST_TUNNEL_QUERY,
  TEST_VARS,
  UNLIMITED_FOR_TESTS,
} from "edge-platform/testing";
import { isolateHeapMiB } from "./isolate-heap.ts";
import { benchBuild } from "./subject.ts";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 64);
const REPORTING = process.env.LOAD_REPORTING !== "off";

const envelope = [
  JSON.stringify({ event_id: "b".repeat(32), dsn: TEST_DSN }),
  JSON.stringify({ type: "event" }),
  JSON.stringify({ message: "load", extra: "x".repeat(1_000) }),
  "",
].join("\n");

/** One kind of request in the mix, and the statuses it is meant to get. */
type Kind = { name: string; method: "GET" | "POST"; path: string; body?: string; expected: number[] };
const ALL_KINDS: Kind[] = [
  { name: "dynamic page", method: "GET", path: "/now", expected: [200] },
  { name: "dynamic page", method: "GET", path: "/items/ams", expected: [200] },
  { name: "static page (asset)", method: "GET", path: "/glossary/edge", expected: [200] },
  { name: "page data", method: "GET", path: "/items/lhr.data", expected: [200] },
  { name: "page data", method: "GET", path: "/now.data", expected: [200] },
  { name: "static page data (asset)", method: "GET", path: "/about.data", expected: [200] },
  {
    name: "tunnel post",
    method: "POST",
    path: `/monitoring?${TEST_TUNNEL_QUERY}`,
    body: envelope,
    expected: [200],
  },
  { name: "unknown page (intended 404)", method: "GET", path: "/items/nope", expected: [404] },
];
const MIX = ALL_KINDS.filter((kind) => REPORTING || !kind.path.startsWith("/monitoring"));
const label = (kind: Kind) => `${kind.name}: ${kind.method} ${kind.path.split("?")[0]}`;

/** Resident memory of the workerd processes below this one (KiB from ps, returned in MiB). */
function workerdMemoryMiB(): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid = "", ppid = "", rss = "0", comm = ""]) => ({ pid, ppid, rss: Number(rss), comm }));
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (ours.has(row.ppid) && !ours.has(row.pid)) {
        ours.add(row.pid);
        grew = true;
      }
    }
  }
  const kib = rows
    .filter((row) => ours.has(row.pid) && row.comm.includes("workerd"))
    .reduce((sum, row) => sum + row.rss, 0);
  return kib / 1024;
}

const inspectorPort = await freePort();
const ingest = await startIngestStandIn();
const app = await serveBuild({
  buildDirectory: await benchBuild(
    ALL_KINDS.filter((kind) => kind.method === "GET" && kind.expected[0] === 200).map((kind) => kind.path),
  ),
  vars: REPORTING ? reportingVars(ingest, { SENTRY_TRACES_SAMPLE_RATE: "0.01" }) : TEST_VARS,
  // 64 connections from one address stand for many visitors: one client's limits (100 envelopes a minute
  // through /monitoring) would answer most tunnel posts 429. The limits have tests of their own.
  rateLimits: UNLIMITED_FOR_TESTS,
  onLog: () => {},
  inspectorPort,
});

const statuses = new Map<Kind, Map<number, number>>();
function count(kind: Kind, status: number) {
  const byStatus = statuses.get(kind) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  statuses.set(kind, byStatus);
}

try {
  // Warm the isolate (and the SDK) before the first memory reading.
  for (const kind of MIX) {
    await (await fetch(new URL(kind.path, app.url), { method: kind.method, body: kind.body })).arrayBuffer();
  }
  const rssStart = workerdMemoryMiB();
  const heapStart = await isolateHeapMiB(inspectorPort);
  const result = await autocannon({
    url: app.url.origin,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: MIX.map((kind) => ({
      method: kind.method,
      path: kind.path,
      ...(kind.body && { body: kind.body, headers: { "content-type": "text/plain;charset=UTF-8" } }),
      onResponse: (status: number) => count(kind, status),
    })),
  });
  // Let waitUntil work (report flushes) finish before the second reading.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const rssEnd = workerdMemoryMiB();
  const heapEnd = await isolateHeapMiB(inspectorPort);

  console.log(
    `\n${SECONDS} s, ${CONNECTIONS} connections, ${MIX.length} request kinds in rotation, reporting ${REPORTING ? "on" : "off"}:`,
  );
  let unexpected = 0;
  for (const kind of MIX) {
    const byStatus = statuses.get(kind) ?? new Map<number, number>();
    for (const [status, n] of byStatus) if (!kind.expected.includes(status)) unexpected += n;
    console.log(
      `  ${label(kind).padEnd(52)} ${[...byStatus].map(([status, n]) => `${status}: ${n}`).join(", ")}`,
    );
  }
  const { latency, errors, timeouts } = result;
  console.log(
    `  latency ms: p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max};  ${result.requests.average} req/s`,
  );
  console.log(
    `  connection errors ${errors}, time-outs ${timeouts}; envelopes at the stand-in ${ingest.received.length}`,
  );
  console.log(
    `  app isolate V8 heap used: ${heapStart.usedMiB.toFixed(1)} -> ${heapEnd.usedMiB.toFixed(1)} MiB ` +
      `(heap size ${heapEnd.totalMiB.toFixed(1)} MiB); workerd processes RSS: ${rssStart.toFixed(0)} -> ${rssEnd.toFixed(0)} MiB`,
  );
  console.log(
    `\nload: ${result.requests.total} requests in ${SECONDS} s at ${CONNECTIONS} connections, ${unexpected} unexpected statuses, ` +
      `${errors + timeouts} errors, p99 ${latency.p99} ms, isolate heap ${heapStart.usedMiB.toFixed(0)} -> ${heapEnd.usedMiB.toFixed(0)} MiB`,
  );
  if (unexpected > 0 || errors + timeouts > 0) process.exitCode = 1;
} finally {
  await app.close();
  await ingest.close();
}
