/**
 * npm run bench:first-paint [-- --phone] [-- --compare http://127.0.0.1:3601 ...] [-- --baseline dir ...] [-- --trace]:
 * first contentful paint of `/` and `/now` of the production build in workerd, in a fresh Chromium context
 * each time (empty cache, new connections), median of 7 (BENCH_RUNS). `--phone` throttles network and CPU
 * (bench/phone.ts); `--compare` measures other servers of the same pages (the Next.js anchor) and
 * `--baseline` other builds of this app (a build directory, e.g. one made with BUILD_DIRECTORY before a
 * change), interleaved with this one, so only figures from one run are compared. `--trace` adds as many
 * traced loads of each, after the timed ones (tracing slows a page), and says where the renderer's main
 * thread spent its time before the first paint (mainThreadBeforePaint). Ends with one summary line.
 */
import { parseArgs } from "node:util";
import { type Browser, chromium } from "@playwright/test";
import { serveBuild } from "../app/platform/local-server/serve-build.ts";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "../tests/support/chromium.ts";
import { emulatePhone, PHONE_OPTION } from "./phone.ts";
import { median } from "./stats.ts";

const { values } = parseArgs({
  options: {
    ...PHONE_OPTION,
    compare: { type: "string", multiple: true, default: [] },
    baseline: { type: "string", multiple: true, default: [] },
    trace: { type: "boolean", default: false },
  },
});
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PATHS = ["/", "/now"];

const app = await serveBuild({ onLog: () => {} });
const baselines = await Promise.all(
  values.baseline.map((buildDirectory) => serveBuild({ buildDirectory, onLog: () => {} })),
);
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
const bases = [
  { name: "this app", url: app.url.origin },
  ...baselines.map((served, index) => ({ name: values.baseline[index] ?? "", url: served.url.origin })),
  ...values.compare.map((url) => ({ name: url, url })),
];

/** ms from navigation start: FCP, the HTML's last byte, the first stylesheet's request and last byte, the first script's request. */
type Sample = { fcp: number; htmlEnd: number; cssStart: number; cssEnd: number; jsStart: number };

/** One cold load. */
async function firstPaint(browser: Browser, url: string): Promise<Sample> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (values.phone) await emulatePhone(page);
    await page.goto(url, { waitUntil: "load" });
    return await page.evaluate(
      () =>
        new Promise<Sample>((resolve) => {
          const read = () => {
            const fcp = performance.getEntriesByName("first-contentful-paint")[0];
            if (!fcp) return requestAnimationFrame(read);
            const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
            const first = (pattern: RegExp) =>
              resources.find((entry) => pattern.test(new URL(entry.name).pathname));
            const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
            resolve({
              fcp: fcp.startTime,
              htmlEnd: navigation?.responseEnd ?? Number.NaN,
              cssStart: first(/\.css$/)?.startTime ?? Number.NaN,
              cssEnd: first(/\.css$/)?.responseEnd ?? Number.NaN,
              jsStart: first(/\.js$/)?.startTime ?? Number.NaN,
            });
          };
          read();
        }),
    );
  } finally {
    await context.close();
  }
}

/**
 * Where the renderer's main thread spent its time between navigation start and the first contentful paint,
 * in ms, from a Chromium trace. Each event's time goes to the innermost kind it is nested in (self time), so
 * the kinds add up to the busy time: the requests a page makes (one `ResourceFetcher::requestResource` per
 * preload or script), its inline and module scripts, the HTML parser's own work, style and layout, paint,
 * and the rest (committing the navigation, creating the script context, idle-time tasks).
 */
type MainThread = Record<(typeof KINDS)[number], number>;
const KINDS = ["busy", "requests", "scripts", "parse", "style+layout", "paint", "rest"] as const;
const KIND_OF: Record<string, (typeof KINDS)[number]> = {
  RunTask: "rest",
  "ResourceFetcher::requestResource": "requests",
  EvaluateScript: "scripts",
  "v8.evaluateModule": "scripts",
  FunctionCall: "scripts",
  ParseHTML: "parse",
  UpdateLayoutTree: "style+layout",
  Layout: "style+layout",
  PrePaint: "paint",
  Paint: "paint",
  Commit: "paint",
};
const TRACE_CATEGORIES = [
  "toplevel",
  "disabled-by-default-devtools.timeline",
  "devtools.timeline",
  "blink.user_timing",
  "loading",
  "blink",
  "v8.execute",
];

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { documentLoaderURL?: string } };
};

function mainThreadBeforePaint(events: TraceEvent[]): MainThread {
  const navigation = events.find(
    (event) => event.name === "navigationStart" && event.args?.data?.documentLoaderURL?.startsWith("http"),
  );
  const paint = events.find((event) => event.name === "firstContentfulPaint");
  const parse = events.find((event) => event.name === "ParseHTML" && event.pid === paint?.pid);
  const totals = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as MainThread;
  if (!navigation || !paint || !parse) return totals;
  const timed = events
    .filter(
      (event) =>
        event.ph === "X" &&
        event.pid === parse.pid &&
        event.tid === parse.tid &&
        KIND_OF[event.name] &&
        event.ts >= navigation.ts &&
        event.ts < paint.ts,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Self time: an event's duration less that of the tracked events directly inside it.
  const stack: { end: number; kind: (typeof KINDS)[number] }[] = [];
  for (const event of timed) {
    const duration = (event.dur ?? 0) / 1000;
    while (stack.length && (stack.at(-1)?.end ?? 0) <= event.ts) stack.pop();
    const parent = stack.at(-1);
    const kind = KIND_OF[event.name] ?? "rest";
    if (parent) totals[parent.kind] -= duration;
    else totals.busy += duration;
    totals[kind] += duration;
    stack.push({ end: event.ts + (event.dur ?? 0), kind });
  }
  return totals;
}

/** One cold load, traced. */
async function tracedFirstPaint(browser: Browser, url: string): Promise<MainThread> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (values.phone) await emulatePhone(page);
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
    return mainThreadBeforePaint(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  } finally {
    await context.close();
  }
}

/** RUNS loads of every path of every server, interleaved, keyed "server path". */
async function interleaved<T>(
  load: (browser: Browser, url: string) => Promise<T>,
): Promise<Map<string, T[]>> {
  const results = new Map<string, T[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const path of PATHS) {
      for (const base of bases) {
        const key = `${base.name} ${path}`;
        results.set(key, [...(results.get(key) ?? []), await load(browser, new URL(path, base.url).href)]);
      }
    }
  }
  return results;
}

let samples = new Map<string, Sample[]>();
let traces = new Map<string, MainThread[]>();
try {
  samples = await interleaved(firstPaint);
  if (values.trace) traces = await interleaved(tracedFirstPaint);
} finally {
  await browser.close();
  await app.close();
  await Promise.all(baselines.map((served) => served.close()));
}

const fixed = (ms: number) => (Number.isNaN(ms) ? "-" : ms.toFixed(0));
console.log(
  `\n${values.phone ? "phone profile (bench/phone.ts)" : "desktop, no throttling"}, median of ${RUNS}:`,
);
console.log(
  "server                      path    FCP   HTML end   CSS start   CSS end   JS start   (ms, medians)",
);
const summary: string[] = [];
for (const [key, list] of samples) {
  const name = key.slice(0, key.lastIndexOf(" "));
  const path = key.slice(key.lastIndexOf(" ") + 1);
  const of = (field: keyof Sample) => fixed(median(list.map((sample) => sample[field])));
  console.log(
    `${name.padEnd(27)} ${path.padEnd(6)} ${of("fcp").padStart(5)} ${of("htmlEnd").padStart(10)} ${of("cssStart").padStart(11)} ${of("cssEnd").padStart(9)} ${of("jsStart").padStart(10)}   (FCP all: ${list.map(({ fcp }) => fixed(fcp)).join(", ")})`,
  );
  summary.push(`${name} ${path} ${of("fcp")} ms`);
}
if (traces.size) {
  console.log(
    `\nmain thread before the first paint, traced (ms, medians of ${RUNS}; each kind a median of its own):`,
  );
  console.log(`server                      path   ${KINDS.map((kind) => kind.padStart(13)).join("")}`);
  for (const [key, list] of traces) {
    const name = key.slice(0, key.lastIndexOf(" "));
    const path = key.slice(key.lastIndexOf(" ") + 1);
    const cells = KINDS.map((kind) => fixed(median(list.map((sample) => sample[kind]))).padStart(13));
    console.log(`${name.padEnd(27)} ${path.padEnd(6)}${cells.join("")}`);
  }
}
console.log(`\nfirst-paint${values.phone ? " (phone)" : ""}: ${summary.join("; ")}`);
