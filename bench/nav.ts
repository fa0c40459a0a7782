/**
 * npm run bench:nav: in Chromium against the production build in workerd, click-to-visible time and the
 * requests made after the click, for a prefetched static page, a dynamic page and a back navigation.
 * Median of 9 runs each. Ends with one summary line.
 */
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from "../tests/support/chromium.ts";
import { serveBuild } from "../tests/support/serve-build.ts";
import { median } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const app = await serveBuild({ onLog: () => {} });
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
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  await page.waitForLoadState("networkidle");
}

type Result = { ms: number[]; requests: number[] };
const results: Record<string, Result> = {
  "prefetched static page": { ms: [], requests: [] },
  "dynamic page": { ms: [], requests: [] },
  "back navigation": { ms: [], requests: [] },
};

try {
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage();
    let requests = 0;
    page.on("request", (request) => {
      // The browser itself re-checks the favicon after navigations; that is not the app's request.
      if (!request.url().endsWith("/favicon.svg")) requests++;
    });
    const measure = async (name: string, action: { click: string } | "back", heading: string) => {
      requests = 0;
      const ms = await clickToVisible(page, action, heading);
      await page.waitForLoadState("networkidle");
      results[name]?.ms.push(ms);
      results[name]?.requests.push(requests);
    };
    await page.goto(new URL("/glossary", app.url).href);
    await hydrated(page);
    await measure("prefetched static page", { click: "Isolate" }, "Isolate");
    await page.goto(new URL("/items", app.url).href);
    await hydrated(page);
    await measure("dynamic page", { click: "Tokyo" }, "Tokyo");
    await measure("back navigation", "back", "Edge locations");
    await page.close();
  }
} finally {
  await browser.close();
  await app.close();
}

console.log(`\nmedian of ${RUNS} runs:`);
const summary: string[] = [];
for (const [name, result] of Object.entries(results)) {
  const line = `${name} ${median(result.ms).toFixed(1)} ms, ${median(result.requests)} request(s)`;
  console.log(`  ${line}  (all: ${result.ms.map((ms) => ms.toFixed(1)).join(", ")})`);
  summary.push(line);
}
console.log(`\nnav: ${summary.join("; ")}`);
