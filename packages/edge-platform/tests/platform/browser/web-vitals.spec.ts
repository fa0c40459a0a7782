import type { Page } from "@playwright/test";
import { type ServedBuild, serveBuild } from "../../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../../src/testing/build-under-test.ts";
import {
  type IngestStandIn,
  parseEnvelope,
  receivedSpans,
  receivedTransactions,
} from "../../../src/testing/ingest-stand-in.ts";
import { expect, navigateWithRouter, test, waitForHydration } from "../../../src/testing/playwright";
import { serveWithIngest } from "../../../src/testing/serve-with-ingest.ts";
import { SERVER_START_TIMEOUT_MS } from "./fixture-app";

// packages/edge-platform/docs/reporting.md, "Web vitals": web vitals of real visits reach the stand-in through the tunnel for each
// route pattern (packages/edge-platform/docs/decisions/021-web-vitals.md). LCP, FCP, TTFB and CLS ride on the route's page-load
// transaction, which the SDK ends early when the visit ends early; INP is a span of its own, sent after an
// interaction. The fixture's /vitals/:id shifts once after hydration and has a slow button
// (packages/edge-platform/fixture/app/routes/vitals.tsx).

type Transaction = {
  transaction?: string;
  contexts?: { trace?: { op?: string; trace_id?: string; data?: Record<string, unknown> } };
  measurements?: Record<string, { value: number }>;
};

let sampled: { app: ServedBuild; ingest: IngestStandIn };
let unsampled: { app: ServedBuild; ingest: IngestStandIn };
let silent: ServedBuild;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SERVER_START_TIMEOUT_MS);
  sampled = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "1" },
  });
  unsampled = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "0" },
  });
  silent = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

test.afterAll(async () => {
  for (const served of [sampled, unsampled]) {
    await served?.app.close();
    await served?.ingest.close();
  }
  await silent?.close();
});

test.beforeEach(() => {
  sampled.ingest.received.length = 0;
  unsampled.ingest.received.length = 0;
});

function pageLoads(ingest: IngestStandIn): Transaction[] {
  return (receivedTransactions(ingest.received) as Transaction[]).filter(
    (t) => t.contexts?.trace?.op === "pageload",
  );
}

function inpSpans(ingest: IngestStandIn) {
  return receivedSpans(ingest.received).filter(
    (span) => span.attributes["sentry.origin"] === "auto.ui.browser.inp",
  );
}

/**
 * Interacts with the fixture's slow button (long enough to be INP) and ends the visit by leaving for another
 * page: the SDK reports INP when the page is hidden.
 *
 * It leaves only once web-vitals has taken the interaction in. web-vitals defers the Event Timing entries it
 * is handed to an idle callback (capped at 1 s; headless Chromium runs it only at the cap), and a page hidden
 * before that callback runs forces INP's report while the value is still unset: nothing is sent, and the
 * entries processed a moment later are never reported (packages/edge-platform/docs/decisions/021-web-vitals.md). Idle callbacks with
 * the same cap run in the order they were queued, so one queued after the entry reached every observer runs
 * after web-vitals' own.
 */
async function interactAndLeave(page: Page, interact: () => Promise<void>): Promise<void> {
  const takenIn = page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        new PerformanceObserver((list, observer) => {
          const entries = list.getEntries() as PerformanceEventTiming[];
          if (!entries.some((entry) => entry.interactionId)) return;
          observer.disconnect();
          requestIdleCallback(() => resolve(), { timeout: 1_000 });
        }).observe({ type: "event", durationThreshold: 16 } as PerformanceObserverInit);
      }),
  );
  await interact();
  await expect(page.getByRole("button")).toHaveText("Clicked 1");
  await takenIn;
  await page.goto("about:blank");
}

function clickAndLeave(page: Page): Promise<void> {
  return interactAndLeave(page, () => page.getByRole("button").click());
}

/**
 * Resolves once the lazily loaded SDK has a client (read from its global carrier: the platform marks nothing for
 * it), i.e. the page-load transaction has just started.
 */
async function waitForReporting(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const carrier = (
        window as { __SENTRY__?: Record<string, { defaultCurrentScope?: { _client?: unknown } }> }
      ).__SENTRY__;
      const version = carrier?.version as unknown as string | undefined;
      return Boolean(version && carrier?.[version]?.defaultCurrentScope?._client);
    },
    undefined,
    { polling: "raf" },
  );
}

/** Every request the page makes to an origin other than its own. */
function recordOffOrigin(page: Page, origin: string): string[] {
  const requests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) requests.push(request.url());
  });
  return requests;
}

test("a page load's LCP, FCP, TTFB and CLS arrive through the tunnel on its route's transaction", async ({
  page,
}) => {
  const { app, ingest } = sampled;
  const offOrigin = recordOffOrigin(page, app.url.origin);
  const tunnelled: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/monitoring") tunnelled.push(request.url());
  });
  await page.goto(new URL("/vitals/ams", app.url).href);
  await waitForHydration(page);
  await expect.poll(() => pageLoads(ingest).length, { timeout: 15_000 }).toBe(1);

  const [pageLoad] = pageLoads(ingest);
  expect(pageLoad?.transaction).toBe("/vitals/:id");
  const measurements = pageLoad?.measurements ?? {};
  for (const vital of ["lcp", "fcp", "ttfb"]) expect(measurements[vital]?.value, vital).toBeGreaterThan(0);
  // The banner inserted after hydration moved the paragraph: a layout shift the SDK read after it loaded.
  expect(measurements.cls?.value).toBeGreaterThan(0);
  expect(tunnelled.length).toBeGreaterThan(0);
  expect(offOrigin).toEqual([]);
});

test("a visit that ends right after the SDK is ready still delivers its LCP and CLS", async ({ page }) => {
  const { app, ingest } = sampled;
  await page.goto(new URL("/vitals/lhr", app.url).href);
  // The banner's shift has happened (the browser recorded it): what is tested is its delivery, not a race
  // between the frame that shows the banner and the SDK's start.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        new PerformanceObserver((list, observer) => {
          if (list.getEntries().length > 0) {
            observer.disconnect();
            resolve();
          }
        }).observe({ type: "layout-shift", buffered: true }),
      ),
  );
  await waitForReporting(page);
  // The SDK observes layout shifts as it starts (buffered: true); the browser hands it the earlier entries in
  // a task of its own, which closing at once could win against (CI, 1 run in about 30). A frame and 100 ms
  // later the visit still ends right after the SDK is ready, long before its page load would end (1 s idle).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  await page.close({ runBeforeUnload: true });

  await expect.poll(() => pageLoads(ingest).length, { timeout: 15_000 }).toBe(1);
  const [pageLoad] = pageLoads(ingest);
  expect(pageLoad?.transaction).toBe("/vitals/:id");
  // Ended by the visit's end, not by its idle timeout: the visit ended before the transaction would have.
  expect(pageLoad?.contexts?.trace?.data?.["sentry.idle_span_finish_reason"]).toBe("documentHidden");
  expect(pageLoad?.measurements?.lcp?.value).toBeGreaterThan(0);
  expect(pageLoad?.measurements?.cls?.value).toBeGreaterThan(0);
});

test("a click gives an INP span of its own, named by the route, in the page load's trace", async ({
  page,
}) => {
  const { app, ingest } = sampled;
  await page.goto(new URL("/vitals/los", app.url).href);
  await waitForReporting(page);
  await clickAndLeave(page);

  await expect.poll(() => inpSpans(ingest).length, { timeout: 15_000 }).toBe(1);
  const [inp] = inpSpans(ingest);
  expect(inp?.attributes["sentry.op"]).toBe("ui.interaction.click");
  expect(inp?.attributes["sentry.transaction"]).toBe("/vitals/:id");
  expect(inp?.attributes["browser.web_vital.inp.value"]).toBeGreaterThan(0);
  await expect.poll(() => pageLoads(ingest).length, { timeout: 15_000 }).toBe(1);
  expect(inp?.trace_id).toBe(pageLoads(ingest)[0]?.contexts?.trace?.trace_id);
});

test("a key press gives an INP span of its own, named by the route", async ({ page }) => {
  const { app, ingest } = sampled;
  await page.goto(new URL("/vitals/cdg", app.url).href);
  await waitForReporting(page);
  await interactAndLeave(page, async () => {
    await page.getByRole("button").focus();
    await page.keyboard.press("Enter");
  });

  await expect.poll(() => inpSpans(ingest).length, { timeout: 15_000 }).toBe(1);
  const [inp] = inpSpans(ingest);
  expect(inp?.attributes["sentry.op"]).toBe("ui.interaction.press");
  expect(inp?.attributes["sentry.transaction"]).toBe("/vitals/:id");
  expect(inp?.attributes["browser.web_vital.inp.value"]).toBeGreaterThan(0);
});

test("after a client navigation, an interaction's INP span is named by the route and carries no query value", async ({
  page,
}) => {
  const { app, ingest } = sampled;
  await page.goto(new URL("/items", app.url).href);
  await waitForHydration(page);
  await waitForReporting(page);
  await navigateWithRouter(page, "/vitals/nrt?email=someone%40example.com");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vitals nrt");
  // The navigation's transaction has ended and left: the click below happens with no span active.
  await expect
    .poll(
      () =>
        (receivedTransactions(ingest.received) as Transaction[]).some(
          (t) => t.contexts?.trace?.op === "navigation" && t.transaction === "/vitals/:id",
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  await clickAndLeave(page);

  await expect.poll(() => inpSpans(ingest).length, { timeout: 15_000 }).toBe(1);
  const [inp] = inpSpans(ingest);
  expect(inp?.attributes["sentry.transaction"]).toBe("/vitals/:id");
  const sent = ingest.received.map((request) => request.body.toString("utf8")).join("\n");
  expect(sent).toContain("Again on /vitals/nrt");
  expect(sent).not.toContain("example.com");
  expect(sent).not.toContain("email");
});

test("a visit the platform did not sample sends no transaction and no span, even after a click", async ({
  page,
}) => {
  const { app, ingest } = unsampled;
  await page.goto(new URL("/vitals/ams", app.url).href);
  await waitForReporting(page);
  await clickAndLeave(page);

  // The SDK did load and report (its session), so the silence below is the sampling decision's.
  await expect
    .poll(
      () =>
        ingest.received.some((request) =>
          parseEnvelope(request.body).items.some((item) => item.header.type === "session"),
        ),
      {
        timeout: 15_000,
      },
    )
    .toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(receivedTransactions(ingest.received)).toEqual([]);
  expect(receivedSpans(ingest.received)).toEqual([]);
});

test("without a DSN, a visit with a layout shift and a click sends nothing", async ({ page }) => {
  const reports: string[] = [];
  const offOrigin = recordOffOrigin(page, silent.url.origin);
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/monitoring") reports.push(request.url());
  });
  await page.goto(new URL("/vitals/ams", silent.url).href);
  await waitForHydration(page);
  await page.getByRole("button").click();
  await expect(page.getByRole("button")).toHaveText("Clicked 1");
  // Longer than the SDK takes to load when reporting is on, under load too (decision 021 has the times).
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(await page.evaluate(() => "__SENTRY__" in window)).toBe(false);
  await page.goto("about:blank");
  expect(reports).toEqual([]);
  expect(offOrigin).toEqual([]);
});
