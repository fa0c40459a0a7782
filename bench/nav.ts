/**
 * npm run bench:nav: in Chromium against the production build in workerd, click-to-visible time and the
 * requests made after the click: from `/` to a static page (/about) and a dynamic one (/now), each with a
 * programmatic click once the page has settled (no hover: what the default viewport prefetch gives) and
 * after the pointer rested on the link; then a back navigation. The same shape as the Next.js anchor's
 * harness (packages/edge-platform/docs/PERFORMANCE.md, "The click"). Median of 9 runs each. `--phone`
 * (`npm run bench:nav -- --phone`) throttles network and CPU as a phone on a slow network (bench/phone.ts).
 * The build: bench/subject.ts (BENCH_BUILD, the product's, or the platform's fixture on a product without these
 * pages). Ends with one summary line.
 */
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { serveBuild } from "edge-platform/local-server";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "edge-platform/testing";
import { emulatePhone, PHONE_OPTION } from "./phone.ts";
import { median } from "./stats.ts";
import { benchBuild } from "./subject.ts";

const { values } = parseArgs({ options: PHONE_OPTION });

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const app = await serveBuild({ onLog: () => {}, buildDirectory: await benchBuild(["/", "/about", "/now"]) });
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });

/** Clicks (or goes back) in the page and resolves when the heading shows `heading`, in ms from the click. */
async function clickToVisible(
  page: Page,
  action: { click: string } | "back",
  heading: string,
): Promise<number> {
  return page.evaluate(
    ({ action, heading }) =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        const done = () => {
          if (document.querySelector("h1")?.textContent === heading) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - start));
          }
        };
        const observer = new MutationObserver(done);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        if (action === "back") history.back();
        else [...document.querySelectorAll("a")].find((link) => link.textContent === action.click)?.click();
      }),
    { action, heading },
  );
}

async function hydrated(page: Page): Promise<void> {
  // Hydrated, and the navigation platform installed (it starts the viewport prefetch).
  await page.waitForFunction(() => document.documentElement.dataset.navigation === "ready");
  await page.waitForLoadState("networkidle");
}

type Result = { ms: number[]; requests: number[] };
const results: Record<string, Result> = {
  "static page, no hover": { ms: [], requests: [] },
  "static page, after hover": { ms: [], requests: [] },
  "dynamic page, no hover": { ms: [], requests: [] },
  "dynamic page, after hover": { ms: [], requests: [] },
  "back navigation": { ms: [], requests: [] },
};

const TARGETS = [
  { kind: "static page", link: "About", heading: "About" },
  { kind: "dynamic page", link: "Now", heading: "Now" },
] as const;

try {
  for (let run = 0; run < RUNS; run++) {
    for (const hover of [false, true]) {
      for (const target of TARGETS) {
        const page = await browser.newPage();
        if (values.phone) await emulatePhone(page);
        let requests = 0;
        page.on("request", (request) => {
          // Chromium asks for the icon again after navigations; its cache answers (packages/edge-platform/docs/decisions/018-paint-first.md).
          if (!new URL(request.url()).pathname.includes("/favicon")) requests++;
        });
        await page.goto(new URL("/", app.url).href);
        await hydrated(page);
        // Back to `/`, whichever app: the reference's heading or the fixture's.
        const homeHeading = (await page.locator("h1").first().textContent()) ?? "";
        if (hover) {
          // The pointer rests on the link; intent prefetch (100 ms) gets its chance, then the network settles.
          await page.getByRole("link", { name: target.link, exact: true }).hover();
          await page.waitForTimeout(300);
          await page.waitForLoadState("networkidle");
        }
        requests = 0;
        const ms = await clickToVisible(page, { click: target.link }, target.heading);
        await page.waitForLoadState("networkidle");
        const result = results[`${target.kind}, ${hover ? "after hover" : "no hover"}`];
        result?.ms.push(ms);
        result?.requests.push(requests);
        if (!hover && target.kind === "dynamic page") {
          requests = 0;
          const back = await clickToVisible(page, "back", homeHeading);
          await page.waitForLoadState("networkidle");
          results["back navigation"]?.ms.push(back);
          results["back navigation"]?.requests.push(requests);
        }
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await app.close();
}

console.log(`\n${values.phone ? "phone profile (bench/phone.ts), " : ""}median of ${RUNS} runs:`);
const summary: string[] = [];
for (const [name, result] of Object.entries(results)) {
  const line = `${name} ${median(result.ms).toFixed(1)} ms, ${median(result.requests)} request(s)`;
  console.log(`  ${line}  (all: ${result.ms.map((ms) => ms.toFixed(1)).join(", ")})`);
  summary.push(line);
}
console.log(`\nnav${values.phone ? " (phone)" : ""}: ${summary.join("; ")}`);
