/**
 * npm run bench:first-paint [-- --phone | --splits | --profile network ...] [-- --compare http://127.0.0.1:3001 ...]
 * [-- --coop] [-- --hold-assets] [-- --h2] [-- --direct] [-- --baseline dir ...] [-- --server url ...] [-- --trace]:
 * first contentful paint of `/` and `/now` of the production build in workerd, in a fresh Chromium context
 * each time (empty cache, new connections), median of 7 (BENCH_RUNS); beside it, the HTML's first and last
 * byte, domInteractive, the first script's request and, for our builds, when the page was ready for a click
 * (hydrated, navigation installed), so a change that paints sooner shows what it does to hydration.
 *
 * Each load enters the page as a visitor does: from another site's page (http://localhost:<port>/, a
 * different site than 127.0.0.1), by clicking a link to it, so Chromium's process model is a visitor's (a
 * document with `Cross-Origin-Opener-Policy` opened from a blank tab costs a process swap a visitor never
 * pays); `--direct` loads it in the blank tab instead. Timings are from the clicked navigation's start.
 *
 * `--phone` throttles network and CPU (bench/phone.ts); `--profile network|cpu|phone|desktop` (repeatable)
 * measures each profile given, and `--splits` is phone, network-only and CPU-only; all interleaved.
 * `--compare` measures other servers of the same pages (the anchors), `--baseline` other builds of this
 * app (a build directory, e.g. one made with BUILD_DIRECTORY before a change) and `--server` this app served
 * by another local server already running (e.g. the local server before a change to it), interleaved, so
 * only figures from one run are compared. `--coop` also measures each `--compare` server through a local
 * proxy that adds `Cross-Origin-Opener-Policy: same-origin` (as ours sends). `--hold-assets` also measures
 * this app and each `--compare` server (with COOP under `--coop`) through a front that answers their
 * content-addressed files from memory after the first load: what each local server's own CPU costs the page
 * (on Cloudflare, none of it runs on the visitor's machine). `--h2` puts every server behind
 * a TLS HTTP/2 front (bench/first-paint/fronts.ts). `--paths /,/now` chooses the paths. `--trace` adds as
 * many traced loads of each, after the timed ones (tracing slows a page), and says where the renderer's main
 * thread spent its time before the first paint (mainThreadBeforePaint); TRACE_DIR keeps the traces, and
 * TRACE_CATEGORIES adds Chromium trace categories to them.
 * `--documents dir` also measures saved documents, each served as it is (bench/first-paint/variants.ts
 * makes them: our document with one change each), their assets from this build. Against each other server it
 * prints the difference of the FCP medians with a paired bootstrap interval (bench/stats.ts, medianDifference).
 * Ends with one summary line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Browser, chromium, type Page } from "@playwright/test";
import { serveBuild } from "edge-platform/local-server";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "edge-platform/testing";
import { type Front, startDocuments, startProxy, startReferrer } from "./first-paint/fronts.ts";
import { emulatePhone, PHONE_OPTION, PROFILES, type Profile } from "./phone.ts";
import { median, medianDifference } from "./stats.ts";
import { benchBuild } from "./subject.ts";

const { values } = parseArgs({
  options: {
    ...PHONE_OPTION,
    profile: { type: "string", multiple: true, default: [] },
    splits: { type: "boolean", default: false },
    compare: { type: "string", multiple: true, default: [] },
    baseline: { type: "string", multiple: true, default: [] },
    server: { type: "string", multiple: true, default: [] },
    coop: { type: "boolean", default: false },
    "hold-assets": { type: "boolean", default: false },
    documents: { type: "string" },
    h2: { type: "boolean", default: false },
    direct: { type: "boolean", default: false },
    paths: { type: "string", default: "/,/now" },
    trace: { type: "boolean", default: false },
  },
});
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PATHS = values.paths.split(",");
const profiles: Profile[] = values.splits
  ? ["phone", "network", "cpu"]
  : values.profile.length
    ? values.profile.map((name) => {
        if (!PROFILES.includes(name as Profile)) throw new Error(`--profile: one of ${PROFILES.join(", ")}`);
        return name as Profile;
      })
    : [values.phone ? "phone" : "desktop"];

const app = await serveBuild({ onLog: () => {}, buildDirectory: await benchBuild(PATHS) });
const baselines = await Promise.all(
  values.baseline.map((buildDirectory) => serveBuild({ buildDirectory, onLog: () => {} })),
);
const fronts: Front[] = [];
const referrer = await startReferrer();
fronts.push(referrer);
/** A server as measured: itself, or behind a local front (HTTP/2 with `--h2`, COOP added, assets held). */
async function front(url: string, coop = false, holdAssets = false): Promise<string> {
  if (!values.h2 && !coop && !holdAssets) return url;
  const proxy = await startProxy(url, { coop, h2: values.h2, holdAssets });
  fronts.push(proxy);
  return proxy.url;
}
const bases: { name: string; url: string }[] = [{ name: "this app", url: await front(app.url.origin) }];
if (values["hold-assets"])
  bases.push({ name: "this app, assets held", url: await front(app.url.origin, false, true) });
for (const [index, served] of baselines.entries())
  bases.push({ name: values.baseline[index] ?? "", url: await front(served.url.origin) });
for (const url of values.server) bases.push({ name: `server ${url}`, url: await front(url) });
if (values.documents)
  for (const served of await startDocuments(values.documents, app.url.origin)) {
    fronts.push(served);
    bases.push({ name: `document ${served.name}`, url: await front(served.url) });
  }
/** The anchors' origins as measured: they never mark a page ready. */
const anchors = new Set<string>();
async function addAnchor(name: string, url: string, coop: boolean, holdAssets = false): Promise<void> {
  const measured = await front(url, coop, holdAssets);
  bases.push({ name, url: measured });
  anchors.add(new URL(measured).origin);
}
for (const url of values.compare) {
  await addAnchor(url, url, false);
  if (values.coop) await addAnchor(`${url} +COOP`, url, true);
  if (values["hold-assets"])
    await addAnchor(`${url}${values.coop ? " +COOP" : ""}, assets held`, url, values.coop, true);
}
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });

/**
 * ms from the navigation's start: FCP, the HTML's first and last byte (the first after the response's
 * headers), domInteractive, the first script's request, and when the page was ready for a click (hydrated,
 * the platform's navigation installed: `<html data-navigation="ready">`; NaN for the anchors).
 */
type Sample = {
  fcp: number;
  htmlStart: number;
  htmlEnd: number;
  interactive: number;
  jsStart: number;
  ready: number;
};
const FIELDS: { field: keyof Sample; label: string }[] = [
  { field: "fcp", label: "FCP" },
  { field: "htmlStart", label: "HTML start" },
  { field: "htmlEnd", label: "HTML end" },
  { field: "interactive", label: "domInteractive" },
  { field: "jsStart", label: "JS start" },
  { field: "ready", label: "ready" },
];

/** Opens `url` in `page` as a visitor does: by a link on another site's page (or, `--direct`, by itself). */
async function enter(page: Page, url: string): Promise<void> {
  // The measured page is done with once its document is parsed: first paint never waits for `load`, and a
  // server that leaves one request open (wrangler dev's did, now and then) must not stall the run.
  if (values.direct) {
    await page.goto(url, { waitUntil: "domcontentloaded" });
    await page.waitForLoadState("load", { timeout: 10_000 }).catch(() => {});
    return;
  }
  await page.goto(referrer.link(url), { waitUntil: "load" });
  await Promise.all([page.waitForURL(url, { waitUntil: "domcontentloaded" }), page.click("#go")]);
  // The resource timings (the JS start) are complete once the page has loaded.
  await page.waitForLoadState("load", { timeout: 10_000 }).catch(() => {});
}

/** A fresh context (empty cache, new connections) and page, throttled as `profile` says. */
async function withPage<T>(browser: Browser, profile: Profile, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ ignoreHTTPSErrors: values.h2 });
  try {
    const page = await context.newPage();
    await emulatePhone(page, profile);
    return await use(page);
  } finally {
    await context.close();
  }
}

/** One cold load. */
async function firstPaint(browser: Browser, url: string, profile: Profile): Promise<Sample> {
  return withPage(browser, profile, async (page) => {
    // Notes when the platform marks the page ready (in every document; read in the measured one).
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const ready = document.documentElement?.dataset.navigation === "ready";
        if (ready && !("readyAt" in window)) Object.assign(window, { readyAt: performance.now() });
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-navigation"] });
    });
    await enter(page, url);
    if (!anchors.has(new URL(url).origin))
      await page.waitForFunction(() => "readyAt" in window, undefined, { timeout: 10_000 }).catch(() => {});
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
              htmlStart: navigation?.responseStart ?? Number.NaN,
              htmlEnd: navigation?.responseEnd ?? Number.NaN,
              interactive: navigation?.domInteractive ?? Number.NaN,
              jsStart: first(/\.js$/)?.startTime ?? Number.NaN,
              ready: (window as { readyAt?: number }).readyAt ?? Number.NaN,
            });
          };
          read();
        }),
    );
  });
}

/**
 * Where the renderer's main thread spent its time between navigation start and the first contentful paint,
 * in ms, from a Chromium trace. Each event's time goes to the innermost kind it is nested in (self time), so
 * the kinds add up to the busy time: the requests a page makes (one `ResourceFetcher::requestResource` per
 * preload or script), its inline and module scripts, the HTML parser's own work, style and layout, paint,
 * and the rest (committing the navigation, creating the script context, idle-time tasks). `fcp` is the
 * paint's time from the navigation's start in the trace, `idle` the part of it the thread was not busy
 * (waiting for the network or for another process).
 */
type MainThread = Record<(typeof KINDS)[number], number>;
const KINDS = [
  "fcp",
  "idle",
  "busy",
  "requests",
  "scripts",
  "parse",
  "style+layout",
  "paint",
  "rest",
] as const;
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
  // TRACE_CATEGORIES adds more (comma-separated), e.g. "mojom,disabled-by-default-devtools.timeline.stack".
  ...(process.env.TRACE_CATEGORIES?.split(",") ?? []),
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

function mainThreadBeforePaint(events: TraceEvent[], url: string): MainThread {
  const totals = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as MainThread;
  // The measured page's navigation (not the referrer's), and its first paint.
  const navigation = events.find(
    (event) => event.name === "navigationStart" && event.args?.data?.documentLoaderURL === url,
  );
  if (!navigation) return totals;
  const paint = events
    .filter((event) => event.name === "firstContentfulPaint" && event.ts > navigation.ts)
    .sort((a, b) => a.ts - b.ts)[0];
  const parse = events.find((event) => event.name === "ParseHTML" && event.pid === paint?.pid);
  if (!paint || !parse) return totals;
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
  totals.fcp = (paint.ts - navigation.ts) / 1000;
  totals.idle = totals.fcp - totals.busy;
  return totals;
}

/** One cold load, traced; TRACE_DIR keeps each trace (Chromium's JSON, for chrome://tracing or Perfetto). */
let traceCount = 0;
async function tracedFirstPaint(browser: Browser, url: string, profile: Profile): Promise<MainThread> {
  return withPage(browser, profile, async (page) => {
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await enter(page, url);
    await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
    const trace = await browser.stopTracing();
    if (process.env.TRACE_DIR) {
      // Named after the server as the tables name it (this app, a baseline, a document, an anchor's URL).
      const server = bases.find((base) => new URL(base.url).origin === new URL(url).origin)?.name ?? "";
      const name = `${String(traceCount++).padStart(3, "0")}-${profile}-${server.replaceAll(/[^\w.-]+/g, "_")}${new URL(url).pathname.replaceAll("/", "_")}.json`;
      writeFileSync(join(process.env.TRACE_DIR, name), trace);
    }
    return mainThreadBeforePaint(JSON.parse(trace.toString()).traceEvents, url);
  });
}

/** RUNS loads of every path of every server under every profile, interleaved, keyed "profile|server|path". */
async function interleaved<T>(
  load: (browser: Browser, url: string, profile: Profile) => Promise<T>,
): Promise<Map<string, T[]>> {
  const results = new Map<string, T[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const profile of profiles) {
      for (const path of PATHS) {
        for (const base of bases) {
          const key = `${profile}|${base.name}|${path}`;
          const sample = await load(browser, new URL(path, base.url).href, profile);
          results.set(key, [...(results.get(key) ?? []), sample]);
        }
      }
    }
  }
  return results;
}

let samples = new Map<string, Sample[]>();
let traces = new Map<string, MainThread[]>();
try {
  // One unmeasured load of each first: the servers' first requests (workerd's isolate, Next's route) are not a visitor's.
  for (const path of PATHS)
    for (const base of bases) await firstPaint(browser, new URL(path, base.url).href, "desktop");
  samples = await interleaved(firstPaint);
  if (values.trace) traces = await interleaved(tracedFirstPaint);
} finally {
  await browser.close();
  await Promise.all(fronts.map((served) => served.close()));
  await app.close();
  await Promise.all(baselines.map((served) => served.close()));
}

const fixed = (ms: number) => (Number.isNaN(ms) ? "-" : ms.toFixed(0));
const spread = (list: number[]) => {
  const sorted = list.filter((ms) => !Number.isNaN(ms)).sort((a, b) => a - b);
  return sorted.length ? `${fixed(sorted[0] ?? Number.NaN)}-${fixed(sorted.at(-1) ?? Number.NaN)}` : "-";
};
console.log(
  `\n${values.direct ? "opened in a blank tab" : "entered from another site's page (a link click)"}, ` +
    `${values.h2 ? "HTTPS over HTTP/2 (local TLS front)" : "HTTP/1.1"}, median of ${RUNS}; profiles: ` +
    `${profiles.join(", ")} (phone = 4x CPU + 150 ms RTT + 1.6 Mbps; network/cpu = that half alone)`,
);
console.log(
  `profile  server                            path  ${FIELDS.map(({ label }) => label.padStart(15)).join("")}   FCP min-max`,
);
const summary: string[] = [];
for (const [key, list] of samples) {
  const [profile = "", name = "", path = ""] = key.split("|");
  const of = (field: keyof Sample) => fixed(median(list.map((sample) => sample[field])));
  console.log(
    `${profile.padEnd(8)} ${name.padEnd(33)} ${path.padEnd(5)} ${FIELDS.map(({ field }) => of(field).padStart(15)).join("")}   ${spread(list.map(({ fcp }) => fcp))}`,
  );
  summary.push(`${profile} ${name} ${path} ${of("fcp")} ms`);
}
// "No later than" in one run is a difference of two medians: with its paired interval, a run says whether
// that difference is resolved at all, or lies inside what the run can tell apart.
const compared = bases.filter((base) => base.name !== "this app");
if (compared.length) {
  console.log(
    `\nFCP of this app less each other server's, paired by round (ms: difference of the medians [95% bootstrap ` +
      "interval]; rounds this app painted no later):",
  );
  for (const profile of profiles)
    for (const path of PATHS)
      for (const base of compared) {
        const fcpOf = (name: string) =>
          (samples.get(`${profile}|${name}|${path}`) ?? []).map(({ fcp }) => fcp);
        const { difference, low, high, noLater, rounds } = medianDifference(
          fcpOf("this app"),
          fcpOf(base.name),
        );
        console.log(
          `${profile.padEnd(8)} ${base.name.padEnd(33)} ${path.padEnd(5)} ${fixed(difference).padStart(6)} ` +
            `[${fixed(low)}, ${fixed(high)}]   ${noLater}/${rounds}`,
        );
      }
}
if (traces.size) {
  console.log(
    `\nmain thread before the first paint, traced (ms, medians of ${RUNS}; each kind a median of its own):`,
  );
  console.log(
    `profile  server                            path ${KINDS.map((kind) => kind.padStart(13)).join("")}`,
  );
  for (const [key, list] of traces) {
    const [profile = "", name = "", path = ""] = key.split("|");
    const cells = KINDS.map((kind) => fixed(median(list.map((sample) => sample[kind]))).padStart(13));
    console.log(`${profile.padEnd(8)} ${name.padEnd(33)} ${path.padEnd(5)}${cells.join("")}`);
  }
}
console.log(`\nfirst-paint: ${summary.join("; ")}`);
