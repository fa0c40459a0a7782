/**
 * npm run bench:profile [-- <path> [--dsn | --bare]]: where the Worker's CPU time goes for one kind of request.
 * Serves the production build in workerd, loads `<path>` (default /now) with autocannon while the
 * isolate's V8 profiler samples it (DevTools protocol), and prints the share of samples per bundle file
 * (native work counted to the JavaScript that called it) and the hottest functions. `--dsn` turns
 * reporting on (envelopes to a local stand-in, default sample rate; `--rate 0` traces nothing); `--bare` profiles bench:ssr's baseline (the
 * same app behind a plain React Router handler, built by bench:ssr), so the two can be compared. The raw profile is written to
 * build/profile.cpuprofile (open it in Chromium's DevTools, Performance tab).
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { serveBuild } from "edge-platform/local-server";
import { freePort, reportingVars, startIngestStandIn } from "edge-platform/testing";
import { BASELINE_BUILD_DIRECTORY, buildBaseline } from "./build-baseline.ts";
import { benchBuild } from "./subject.ts";
import { connectToWorker } from "./worker-inspector.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dsn: { type: "boolean", default: false },
    bare: { type: "boolean", default: false },
    rate: { type: "string" },
    duration: { type: "string", default: "5" },
  },
});
const path = positionals[0] ?? "/now";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[] };

const ingest = await startIngestStandIn();
const inspectorPort = await freePort();
// The product's build, or the platform's fixture on a product without this page; `--bare`: the same app's baseline.
const measured = await benchBuild([path]);
if (values.bare) await buildBaseline(measured);
const served = await serveBuild({
  buildDirectory: values.bare ? BASELINE_BUILD_DIRECTORY : measured,
  vars: values.dsn
    ? reportingVars(ingest, values.rate === undefined ? {} : { SENTRY_TRACES_SAMPLE_RATE: values.rate })
    : {},
  onLog: () => {},
  inspectorPort,
});
try {
  const url = new URL(path, served.url).href;
  await autocannon({ url, duration: 2, connections: 8 }); // warm-up: compiled code, cached client
  const inspector = await connectToWorker(inspectorPort);
  await inspector.call("Profiler.enable");
  await inspector.call("Profiler.setSamplingInterval", { interval: 100 });
  await inspector.call("Profiler.start");
  const load = await autocannon({ url, duration: Number(values.duration), connections: 8 });
  const { profile } = (await inspector.call("Profiler.stop")) as { profile: Profile };
  inspector.close();
  await writeFile("build/profile.cpuprofile", JSON.stringify(profile));
  const { byFile, byFunction } = selfTimeShares(profile);
  console.log(
    `${path}${values.bare ? " (baseline)" : ""}${values.dsn ? " (reporting on)" : ""}: ${load.requests.average.toFixed(0)} req/s while profiled`,
  );
  console.log("\nshare of CPU samples by file (natives counted to their JavaScript caller):");
  for (const [name, share] of top(byFile, 10)) console.log(`${share.padStart(6)}  ${name}`);
  console.log("\nhottest functions (self time):");
  for (const [name, share] of top(byFunction, 25)) console.log(`${share.padStart(6)}  ${name}`);
} finally {
  await served.close();
  await ingest.close();
}

/** Self time per file and per function, each sample counted to the nearest frame with a script URL. */
function selfTimeShares(profile: Profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const sample of profile.samples) {
    let id: number | undefined = sample;
    while (id !== undefined && !nodes.get(id)?.callFrame.url && parents.has(id)) id = parents.get(id);
    // Samples with no script caller at all (GC, idle, the engine itself) keep their own name.
    const frame = nodes.get(id ?? sample)?.callFrame.url
      ? nodes.get(id ?? sample)?.callFrame
      : nodes.get(sample)?.callFrame;
    const file = frame?.url
      ? frame.url.replace(/^.*\/build\/server\//, "")
      : frame?.functionName || "(native)";
    const fn = frame?.url ? `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}` : file;
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const shares = (counts: Map<string, number>) =>
    new Map([...counts].map(([name, count]) => [name, (100 * count) / total]));
  return { byFile: shares(byFile), byFunction: shares(byFunction) };
}

function top(shares: Map<string, number>, count: number): [string, string][] {
  return [...shares]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, share]) => [name, `${share.toFixed(1)}%`]);
}
