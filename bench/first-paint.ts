/**
 * npm run bench:first-paint [-- --phone] [-- --compare http://127.0.0.1:3601 ...] [-- --baseline dir ...]:
 * first contentful paint of `/` and `/now` of the production build in workerd, in a fresh Chromium context
 * each time (empty cache, new connections), median of 7 (BENCH_RUNS). `--phone` throttles network and CPU
 * (bench/phone.ts); `--compare` measures other servers of the same pages (the Next.js anchor) and
 * `--baseline` other builds of this app (a build directory, e.g. one made with BUILD_DIRECTORY before a
 * change), interleaved with this one, so only figures from one run are compared. Ends with one summary line.
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

const samples = new Map<string, Sample[]>();
try {
  for (let run = 0; run < RUNS; run++) {
    for (const path of PATHS) {
      for (const base of bases) {
        const key = `${base.name} ${path}`;
        samples.set(key, [
          ...(samples.get(key) ?? []),
          await firstPaint(browser, new URL(path, base.url).href),
        ]);
      }
    }
  }
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
console.log(`\nfirst-paint${values.phone ? " (phone)" : ""}: ${summary.join("; ")}`);
