/**
 * npm run bench:tap [-- --against http://127.0.0.1:3001] [-- --phone]: a visitor's tap on a link of `/`, to a
 * static page (/about) and a dynamic one (/now), on a phone's CPU (Chromium's 4x slowdown; `--phone` adds
 * slow 4G, bench/phone.ts), at three moments:
 * - **loaded**: as soon as the page's `load` event has fired: hydration, the navigation code and prefetching are
 *   all under way in both apps (a tap before a page can follow it client-side may become a document load);
 * - **early**: as soon as the network has been quiet for 500 ms (Playwright's `networkidle`, the anchors'
 *   harness's moment): on a slow CPU the page is often still hydrating, and prefetching has not finished;
 * - **settled**: once no request has been made for 1.5 s: prefetching has finished.
 * For each, click to the target's `<h1>` shown (ms, in the page's clock), the requests made after the tap,
 * and whether the tap became a document load. Beside it, **ready for a click**: from the start of the load to
 * the end of the main thread's last long task (50 ms or more) before the settled tap, the moment a tap is
 * handled at once (Lighthouse's Time to Interactive, without its 5 s window).
 *
 * `--against` measures another server of the same three pages (the Next.js 16 app that
 * packages/edge-platform/docs/PERFORMANCE.md compares against, with the same links and headings) in the
 * same rounds, interleaved and alternating which goes first, and prints this app's median less the
 * other's with a paired 95% interval (bench/stats.ts). A fresh browser context per tap. BENCH_RUNS
 * rounds (default 9); the build: bench/subject.ts (BENCH_BUILD, this app's, or the platform's fixture). Both servers
 * are local and speak HTTP/1.1 (six connections per origin).
 */
import { parseArgs } from "node:util";
import { type Browser, chromium } from "@playwright/test";
import { serveBuild } from "edge-platform/local-server";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "edge-platform/testing";
import { emulatePhone } from "./phone.ts";
import { median, medianDifference } from "./stats.ts";
import { benchBuild } from "./subject.ts";

const { values } = parseArgs({
  options: { phone: { type: "boolean", default: false }, against: { type: "string" } },
});
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** No request for this long after `networkidle`: prefetching has finished. */
const SETTLED_QUIET_MS = 1_500;
/** A tap whose page is not shown by then counts as failed. */
const TAP_TIMEOUT_MS = 15_000;

const TARGETS = [
  { path: "/about", heading: "About" },
  { path: "/now", heading: "Now" },
] as const;
const MOMENTS = ["loaded", "early", "settled"] as const;
type Moment = (typeof MOMENTS)[number];

type Tap = { ms: number; requests: number; documentLoad: boolean; readyMs: number };

const app = await serveBuild({ onLog: () => {}, buildDirectory: await benchBuild(["/", "/about", "/now"]) });
const servers: Record<string, string> = { ours: app.url.origin };
if (values.against) servers.against = new URL(values.against).origin;
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });

/** One tap in a fresh context: load `/`, wait for the moment, tap the link to `target`. */
async function tap(
  browser: Browser,
  origin: string,
  target: (typeof TARGETS)[number],
  moment: Moment,
): Promise<Tap> {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
  const page = await context.newPage();
  await emulatePhone(page, values.phone ? "phone" : "cpu");
  await page.addInitScript(() => {
    const longTasks: number[] = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.startTime + entry.duration);
    }).observe({ type: "longtask", buffered: true });
    (window as unknown as { __longTaskEnds: number[] }).__longTaskEnds = longTasks;
  });
  let requests = 0;
  let lastRequest = Date.now();
  page.on("request", (request) => {
    lastRequest = Date.now();
    // Chromium asks for the icon again after a navigation; its cache answers (decision 018).
    if (!new URL(request.url()).pathname.includes("favicon")) requests++;
  });
  await page.goto(`${origin}/`, { waitUntil: moment === "loaded" ? "load" : "networkidle" });
  if (moment === "settled") {
    while (Date.now() - lastRequest < SETTLED_QUIET_MS) await page.waitForTimeout(100);
  }
  requests = 0;
  const started = Date.now();
  const measured = await page
    .evaluate(
      ({ path, heading, timeout }) =>
        new Promise<{ ms: number; readyMs: number }>((resolve, reject) => {
          const link = [...document.querySelectorAll("a[href]")].find(
            (anchor) => new URL((anchor as HTMLAnchorElement).href).pathname === path,
          ) as HTMLAnchorElement | undefined;
          if (!link) return reject(new Error(`no link to ${path}`));
          const ends = (window as unknown as { __longTaskEnds: number[] }).__longTaskEnds;
          const readyMs = Math.max(0, ...ends);
          const start = performance.now();
          const shown = () =>
            window.location.pathname === path &&
            document.querySelector("h1")?.textContent?.trim() === heading;
          const check = () => {
            if (shown()) resolve({ ms: performance.now() - start, readyMs });
            else if (performance.now() - start > timeout) reject(new Error(`${path} not shown`));
            else requestAnimationFrame(check);
          };
          link.click();
          check();
        }),
      { path: target.path, heading: target.heading, timeout: TAP_TIMEOUT_MS },
    )
    .catch(() => undefined);
  let result: Tap;
  if (measured) {
    result = { ms: measured.ms, readyMs: measured.readyMs, requests, documentLoad: false };
  } else {
    // The page unloaded: the tap became a document load. Timed on Node's clock to the heading.
    await page.getByRole("heading", { level: 1, name: target.heading }).waitFor({ timeout: TAP_TIMEOUT_MS });
    result = { ms: Date.now() - started, readyMs: Number.NaN, requests, documentLoad: true };
  }
  await context.close();
  return result;
}

const samples: Record<string, Tap[]> = {};
const key = (server: string, path: string, moment: Moment) => `${server} ${path} ${moment}`;
try {
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 === 0 ? Object.keys(servers) : Object.keys(servers).reverse();
    for (const target of TARGETS) {
      for (const moment of MOMENTS) {
        for (const server of order) {
          const origin = servers[server] ?? "";
          const taken = await tap(browser, origin, target, moment);
          samples[key(server, target.path, moment)] = [
            ...(samples[key(server, target.path, moment)] ?? []),
            taken,
          ];
        }
      }
    }
    process.stdout.write(`round ${round + 1}/${RUNS}\n`);
  }
} finally {
  await browser.close();
  await app.close();
}

const fmt = (ms: number) => (Number.isNaN(ms) ? "n/a" : `${ms.toFixed(0)} ms`);
console.log(
  `\n${values.phone ? "phone (4x CPU, slow 4G)" : "4x CPU"}, median of ${RUNS} rounds; servers: ${JSON.stringify(servers)}`,
);
const summary: string[] = [];
for (const target of TARGETS) {
  for (const moment of MOMENTS) {
    const line: string[] = [];
    for (const server of Object.keys(servers)) {
      const taps = samples[key(server, target.path, moment)] ?? [];
      line.push(
        `${server} ${fmt(median(taps.map((t) => t.ms)))}, ${median(taps.map((t) => t.requests))} requests, ` +
          `${taps.filter((t) => t.documentLoad).length} document loads`,
      );
    }
    const ours = samples[key("ours", target.path, moment)] ?? [];
    const theirs = samples[key("against", target.path, moment)];
    if (theirs) {
      const d = medianDifference(
        ours.map((t) => t.ms),
        theirs.map((t) => t.ms),
      );
      const verdict = d.high <= 0 ? "no slower (resolved)" : d.low > 0 ? "slower (resolved)" : "not resolved";
      line.push(
        `ours - against ${d.difference.toFixed(0)} ms [${d.low.toFixed(0)}, ${d.high.toFixed(0)}]: ${verdict}`,
      );
    }
    console.log(`  ${target.path} ${moment}: ${line.join("; ")}`);
    summary.push(`${target.path} ${moment} ${line.at(-1)}`);
  }
}
for (const server of Object.keys(servers)) {
  const ready = MOMENTS.includes("settled")
    ? TARGETS.flatMap((target) => (samples[key(server, target.path, "settled")] ?? []).map((t) => t.readyMs))
    : [];
  console.log(`  ready for a click (${server}): ${fmt(median(ready))} after the load started`);
}
if (values.against) {
  const ready = (server: string) =>
    TARGETS.flatMap((target) => (samples[key(server, target.path, "settled")] ?? []).map((t) => t.readyMs));
  const d = medianDifference(ready("ours"), ready("against"));
  console.log(
    `  ready for a click, ours - against: ${d.difference.toFixed(0)} ms [${d.low.toFixed(0)}, ${d.high.toFixed(0)}]`,
  );
}
console.log(`\ntap: ${summary.join("; ")}`);
