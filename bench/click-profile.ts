/**
 * node bench/click-profile.ts [--cpu-throttle N] [--runs N] [--hover] [--only /about] <base URL>...
 *
 * What happens between a click and the new page on screen (packages/edge-platform/docs/PERFORMANCE.md, "The click";
 * packages/edge-platform/docs/decisions/023-click-in-one-render.md), for any app
 * with the anchors' shape (`/` links to `/about` and `/now`, each with its `<h1>`): our build, the plain
 * React Router 7 anchor, Next.js. Each sample is a fresh Chromium context: load `/`, wait for the network
 * to settle (the prefetches), optionally hover the link, start a Chromium performance trace (CDP Tracing,
 * with V8's sampling CPU profiler at 50 us), click the link in the page, stop when the `<h1>` shows the
 * heading and one more frame has run.
 *
 * The click is split into steps from what the page does, framework-agnostic (an init script watches the
 * DOM, `fetch`, `history` and `<link>` elements):
 * - `handler`: the click's dispatch (every listener, and whatever the router runs synchronously);
 * - `data`: the first page-data `fetch` started -> its answer (from the network or a prefetch cache);
 * - `css`: a `<link>` for a stylesheet inserted -> its load event (React Router's "preload before commit");
 * - `push`: `history.pushState` (React Router calls it once its loaders are done, just before it sets the
 *   new state, so it marks "router done, commit next");
 * - `visible`: the `<h1>` reads the new heading; `frame`: the next animation frame after it;
 * - `commits`: DOM mutation batches between the click and `visible` (a "loading" render that changes a
 *   NavLink's class shows here).
 * The trace adds, for the click -> visible window: main-thread busy time, tasks run, and CPU samples by
 * what they ran. For a build whose source maps are in `build/sourcemaps/client` (ours), samples are named
 * by their original source (react-dom, react-router, turbo-stream, packages/edge-platform/src/...); otherwise by script.
 *
 * Bases are measured interleaved (A B A B ..., reversed every other round); medians per base and target.
 * The machine may be shared: the load average is printed at the start and the end.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type CDPSession, chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "edge-platform/testing";
import { median } from "./stats.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "cpu-throttle": { type: "string", default: "1" },
    runs: { type: "string", default: "7" },
    hover: { type: "boolean", default: false },
    only: { type: "string" },
    top: { type: "string", default: "8" },
    timeline: { type: "boolean", default: false },
  },
});
const bases = positionals.map((base) => base.replace(/\/+$/, ""));
if (bases.length === 0) {
  console.error("usage: node bench/click-profile.ts [--cpu-throttle 4] [--runs 7] [--hover] <base URL>...");
  process.exit(1);
}
const THROTTLE = Number(values["cpu-throttle"]);
const RUNS = Number(values.runs);
const TOP = Number(values.top);
const TARGETS = [
  { path: "/about", heading: "About" },
  { path: "/now", heading: "Now" },
].filter((target) => !values.only || target.path === values.only);
const SOURCEMAPS = path.resolve(import.meta.dirname, "../build/sourcemaps/client");

type Marks = {
  handler: number;
  dataStart?: number;
  dataEnd?: number;
  cssInserted?: number;
  cssLoaded?: number;
  push?: number;
  visible: number;
  frame: number;
  commits: number[];
};

/** Installed in every page before its scripts: records what the click sets off, in performance.now() ms. */
function watchPage() {
  type Log = { on: boolean; t0: number; events: [string, number][]; mutations: number[] };
  const log: Log = { on: false, t0: 0, events: [], mutations: [] };
  (window as unknown as { __click: Log }).__click = log;
  const note = (name: string) => {
    if (log.on) log.events.push([name, performance.now() - log.t0]);
  };
  // The outermost `fetch` is watched, whatever an app puts in front of the browser's own later (ours
  // answers prefetched data from memory): a setter wraps each new value.
  const watched = (inner: typeof fetch): typeof fetch =>
    function (this: unknown, input, init) {
      const url = String(input instanceof Request ? input.url : input);
      const isData = /\.data(\?|$)|_rsc=|\?_routes=/.test(url);
      if (isData) note("dataStart");
      const answer = inner.call(this, input, init);
      if (isData)
        answer.then(
          () => note("dataEnd"),
          () => note("dataEnd"),
        );
      return answer;
    };
  let current = watched(window.fetch);
  let assigned = window.fetch;
  Object.defineProperty(window, "fetch", {
    configurable: true,
    get: () => current,
    set: (next: typeof fetch) => {
      assigned = next;
      current = watched(next);
    },
  });
  void assigned;
  const push = history.pushState;
  history.pushState = function (...args) {
    note("push");
    return push.apply(this, args);
  };
  new MutationObserver((records) => {
    if (!log.on) return;
    log.mutations.push(performance.now() - log.t0);
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLLinkElement && (node.rel === "stylesheet" || node.as === "style")) {
          note("cssInserted");
          node.addEventListener("load", () => note("cssLoaded"));
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** Clicks the link in the page; resolves with the marks once the heading shows and a frame has run. */
function clickInPage({ path, heading }: { path: string; heading: string }): Promise<Marks | string> {
  type Log = { on: boolean; t0: number; events: [string, number][]; mutations: number[] };
  const log = (window as unknown as { __click: Log }).__click;
  const link = [...document.querySelectorAll("a[href]")].find(
    (a) => new URL((a as HTMLAnchorElement).href).pathname === path,
  ) as HTMLAnchorElement | undefined;
  if (!link) return Promise.resolve(`no link to ${path}`);
  return new Promise((resolve) => {
    let visible: number | undefined;
    const check = () => {
      if (visible !== undefined) return;
      const h1 = document.querySelector("h1");
      if (location.pathname !== path || h1?.textContent?.trim() !== heading || !h1.checkVisibility()) return;
      visible = performance.now() - log.t0;
      requestAnimationFrame(() => {
        const frame = performance.now() - log.t0;
        log.on = false;
        const first = (name: string) => log.events.find(([event]) => event === name)?.[1];
        resolve({
          handler,
          dataStart: first("dataStart"),
          dataEnd: first("dataEnd"),
          cssInserted: first("cssInserted"),
          cssLoaded: first("cssLoaded"),
          push: first("push"),
          visible: visible as number,
          frame,
          commits: log.mutations.filter((t) => t <= (visible as number)),
        });
      });
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
    const poll = () => {
      check();
      if (visible === undefined) requestAnimationFrame(poll);
    };
    setTimeout(() => resolve("timeout"), 10_000);
    performance.mark("click-profile:click");
    log.t0 = performance.now();
    log.on = true;
    link.click();
    const handler = performance.now() - log.t0;
    check();
    requestAnimationFrame(poll);
  });
}

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  id?: string;
  args?: { data?: Record<string, unknown> };
};
type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};

async function traced(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: {
      includedCategories: [
        "devtools.timeline",
        "blink.user_timing",
        "disabled-by-default-v8.cpu_profiler",
        "toplevel",
      ],
    },
  });
  await run();
  const complete = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
  await cdp.send("Tracing.end");
  await complete;
  return events;
}

const sourceMaps = new Map<string, SourceMap | null>();
const sourceTexts = new Map<string, string[]>();
function sourceMapOf(url: string): SourceMap | null {
  if (!sourceMaps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = path.join(SOURCEMAPS, "assets", `${path.basename(new URL(url).pathname)}.map`);
      const payload = JSON.parse(readFileSync(file, "utf8"));
      map = new SourceMap(payload);
      payload.sources.forEach((source: string, i: number) => {
        const text = payload.sourcesContent?.[i];
        if (typeof text === "string") sourceTexts.set(source, text.split("\n"));
      });
    } catch {}
    sourceMaps.set(url, map);
  }
  return sourceMaps.get(url) ?? null;
}

/** The name of the function whose code starts at a mapped position, read from the map's own sources. */
function originalName(entry: { originalSource: string; originalLine: number; originalColumn: number }) {
  const text = sourceTexts.get(entry.originalSource);
  const line = text?.[entry.originalLine]?.slice(0, entry.originalColumn + 80) ?? "";
  const before = line.slice(0, entry.originalColumn + 1);
  const named =
    /(?:function\*?\s+|(?:const|let|var)\s+)([\w$]+)[^\w$]*$/.exec(before) ??
    /([\w$]+)\s*(?:=|:)\s*(?:async\s*)?(?:function\b[^(]*)?\(?[^()]*\)?\s*(?:=>)?\s*$/.exec(before) ??
    /^\s*(?:async\s+)?([\w$]+)\s*\(/.exec(line.slice(entry.originalColumn)) ??
    /function\*?\s+([\w$]+)/.exec(line.slice(entry.originalColumn));
  return named?.[1];
}

/** What a CPU sample was running, by original source where a source map says, else by script and name. */
function nameOf({ functionName, url, lineNumber, columnNumber }: ProfileNode["callFrame"]): string {
  if (!url) return functionName || "(native)";
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber);
  // A mapping far before the position is another function's (a map can stop short of a long line's end).
  const near =
    entry &&
    "generatedLine" in entry &&
    entry.generatedLine === lineNumber &&
    columnNumber - entry.generatedColumn < 100;
  if (near && "originalSource" in entry && entry.originalSource) {
    const source = entry.originalSource
      .replace(/^.*node_modules\//, "")
      .replace(/\/dist\/.*?([^/]+)$/, ":$1")
      .replace(/^.*?\/app\//, "app/");
    return `${source}:${entry.originalLine + 1} ${originalName(entry) ?? functionName}`;
  }
  return `${path.basename(new URL(url).pathname)} ${functionName || "(anonymous)"}`;
}

/** The click -> visible window of a trace: main-thread busy time, tasks, and CPU samples by what ran. */
function analyse(events: TraceEvent[], marks: Marks) {
  const click = events.find((e) => e.name === "click-profile:click");
  if (!click) return undefined;
  const start = click.ts;
  const end = start + marks.visible * 1000;
  const main = click.tid;
  const tasks = events.filter(
    (e) =>
      e.tid === main &&
      e.ph === "X" &&
      /(^|::)RunTask$/.test(e.name) &&
      e.ts + (e.dur ?? 0) >= start &&
      e.ts <= end,
  );
  const busy = tasks.reduce((sum, e) => sum + Math.min(end, e.ts + (e.dur ?? 0)) - Math.max(start, e.ts), 0);
  // The sampling profiler's chunks: nodes arrive once, samples with time deltas.
  const nodes = new Map<number, ProfileNode>();
  const bySelf = new Map<string, number>();
  const sampled: [number, string, number][] = [];
  const profiles = new Map<string, number>();
  for (const e of events) {
    if (e.name === "Profile" && e.id) profiles.set(e.id, (e.args?.data?.startTime as number) ?? e.ts);
  }
  const clocks = new Map(profiles);
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !e.id) continue;
    const data = e.args?.data as
      | { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] }
      | undefined;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    let t = clocks.get(e.id) ?? e.ts;
    for (let i = 0; i < samples.length; i++) {
      t += deltas[i] ?? 0;
      if (t < start || t > end) continue;
      const node = nodes.get(samples[i] as number);
      if (!node) continue;
      const name = nameOf(node.callFrame);
      if (name === "(idle)") continue;
      const us = deltas[i + 1] ?? deltas[i] ?? 0;
      bySelf.set(name, (bySelf.get(name) ?? 0) + us);
      sampled.push([t, name, us]);
    }
    clocks.set(e.id, t);
  }
  const byPackage = new Map<string, number>();
  for (const [name, us] of bySelf) {
    const file = name.split(" ")[0] ?? name;
    const key = name.startsWith("(")
      ? name
      : file.startsWith("app/")
        ? path.dirname(file)
        : (file.split(/[/:]/)[0] ?? file);
    byPackage.set(key, (byPackage.get(key) ?? 0) + us);
  }
  const timeline = tasks.map((task) => {
    const inTask = new Map<string, number>();
    for (const [t, name, us] of sampled) {
      if (t >= task.ts && t <= task.ts + (task.dur ?? 0)) inTask.set(name, (inTask.get(name) ?? 0) + us);
    }
    const top = [...inTask].sort((a, b) => b[1] - a[1]).slice(0, 3);
    return `${((task.ts - start) / 1000).toFixed(1)}+${((task.dur ?? 0) / 1000).toFixed(1)} ${top.map(([n]) => n).join(", ")}`;
  });
  return { busyMs: busy / 1000, tasks: tasks.length, bySelf, byPackage, timeline };
}

async function sample(base: string, target: (typeof TARGETS)[number]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(watchPage);
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (THROTTLE > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLE });
  await page.goto(`${base}/`, { waitUntil: "networkidle" });
  if (values.hover) {
    await page.hover(`a[href="${target.path}"]`);
    await page.waitForTimeout(300);
    await page.waitForLoadState("networkidle");
  }
  await page.waitForTimeout(200);
  let marks: Marks | string = "not run";
  const events = await traced(cdp, async () => {
    marks = await page.evaluate(clickInPage, target);
  });
  await context.close();
  if (typeof marks === "string") return { error: marks };
  return { marks: marks as Marks, trace: analyse(events, marks) };
}

const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
const loadAtStart = loadavg()[0] ?? 0;
type Sample = Awaited<ReturnType<typeof sample>>;
const samples = new Map<string, Sample[]>();
for (let run = 0; run < RUNS; run++) {
  const order = run % 2 === 0 ? bases : [...bases].reverse();
  for (const target of TARGETS) {
    for (const base of order) {
      const key = `${base} ${target.path}`;
      samples.set(key, [...(samples.get(key) ?? []), await sample(base, target)]);
    }
  }
}
await browser.close();

const fixed = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? "-" : ms.toFixed(1));
const med = (xs: (number | undefined)[]) => {
  const present = xs.filter((x): x is number => x !== undefined);
  return present.length * 2 > xs.length ? median(present) : undefined;
};
console.log(
  `click-profile: ${RUNS} runs, CPU throttle ${THROTTLE}x${values.hover ? ", after hover" : ", no hover"}; ` +
    `load average ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end. ` +
    "Medians, ms from the click (a step present in fewer than half the samples shows '-').",
);
for (const [key, all] of samples) {
  const ok = all.flatMap((s) => ("marks" in s && s.marks ? [s] : []));
  const errors = all.length - ok.length;
  const m = (pick: (marks: Marks) => number | undefined) => fixed(med(ok.map((s) => pick(s.marks))));
  console.log(`\n## ${key} (${ok.length} samples${errors ? `, ${errors} failed` : ""})`);
  console.log(
    `handler ${m((x) => x.handler)} | data ${m((x) => x.dataStart)} -> ${m((x) => x.dataEnd)} | ` +
      `css ${m((x) => x.cssInserted)} -> ${m((x) => x.cssLoaded)} | push ${m((x) => x.push)} | ` +
      `visible ${m((x) => x.visible)} | frame ${m((x) => x.frame)} | DOM commits before visible ` +
      `${m((x) => x.commits.length)} (first at ${m((x) => x.commits[0])})`,
  );
  const traces = ok.flatMap((s) => (s.trace ? [s.trace] : []));
  console.log(
    `main thread busy ${fixed(med(traces.map((t) => t.busyMs)))} ms in ${fixed(med(traces.map((t) => t.tasks)))} tasks`,
  );
  for (const [label, pick] of [
    ["CPU by package (median ms)", (t: NonNullable<(typeof traces)[number]>) => t.byPackage],
    ["CPU by function (median ms)", (t: NonNullable<(typeof traces)[number]>) => t.bySelf],
  ] as const) {
    const names = new Set(traces.flatMap((t) => [...pick(t).keys()]));
    const rows = [...names]
      .map((name) => [name, median(traces.map((t) => (pick(t).get(name) ?? 0) / 1000))] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .filter(([, ms]) => ms >= 0.05);
    console.log(`${label}: ${rows.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join("; ")}`);
  }
  // One sample's main-thread tasks (start+duration ms from the click, what they ran most): the scheduling.
  const middle = [...ok].sort((a, b) => a.marks.visible - b.marks.visible)[Math.floor(ok.length / 2)];
  if (values.timeline && middle?.trace) {
    console.log(`tasks of the median sample: ${middle.trace.timeline.join(" | ")}`);
    console.log(`DOM mutation batches of the median sample: ${middle.marks.commits.map(fixed).join(", ")}`);
  }
}
