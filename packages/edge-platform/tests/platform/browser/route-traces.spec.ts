import type { Request } from "@playwright/test";
import { type ServedBuild, serveBuild } from "../../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../../src/testing/build-under-test.ts";
import { type IngestStandIn, receivedTransactions } from "../../../src/testing/ingest-stand-in.ts";
import { expect, test, waitForHydration } from "../../../src/testing/playwright";
import { serveWithIngest } from "../../../src/testing/serve-with-ingest.ts";
import { SERVER_START_TIMEOUT_MS } from "./fixture-app";

// packages/edge-platform/docs/reporting.md, "Traces": browser page loads and navigations are named by React Router's route, and the
// page-data request of a client navigation continues the browser's trace (click -> Worker -> loaders in one
// trace), only when reporting is on. Web vitals: web-vitals.spec.ts.

type Transaction = {
  transaction?: string;
  contexts?: { trace?: { op?: string; trace_id?: string } };
};

let ingest: IngestStandIn;
let reporting: ServedBuild;
let silent: ServedBuild;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SERVER_START_TIMEOUT_MS);
  ({ app: reporting, ingest } = await serveWithIngest({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { SENTRY_TRACES_SAMPLE_RATE: "1" },
  }));
  silent = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

test.afterAll(async () => {
  await reporting?.close();
  await silent?.close();
  await ingest?.close();
});

function transactions(): Transaction[] {
  return receivedTransactions(ingest.received) as Transaction[];
}

function transactionsWith(op: string, name: string): Transaction[] {
  return transactions().filter((t) => t.contexts?.trace?.op === op && t.transaction === name);
}

/** The page-data requests the page makes, with the headers Chromium sent. */
function recordDataRequests(page: import("@playwright/test").Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".data")) requests.push(request);
  });
  return requests;
}

test("page loads and navigations are named by route, and page data continues the navigation's trace", async ({
  page,
}) => {
  const dataRequests = recordDataRequests(page);
  await page.goto(new URL("/items/ams", reporting.url).href);
  await waitForHydration(page);
  await expect.poll(() => transactionsWith("pageload", "/items/:id").length, { timeout: 15_000 }).toBe(1);

  await page.getByRole("link", { name: "Items", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
  await page.getByRole("link", { name: "Tokyo" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  await page.getByRole("link", { name: "Now", exact: true }).click();
  await expect.poll(() => transactionsWith("navigation", "/items/:id").length, { timeout: 15_000 }).toBe(1);

  const navigation = transactionsWith("navigation", "/items/:id")[0];
  const traceId = navigation?.contexts?.trace?.trace_id;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  const itemData = dataRequests.find((request) => new URL(request.url()).pathname === "/items/nrt.data");
  const headers = (await itemData?.allHeaders()) ?? {};
  expect(headers["sentry-trace"]).toMatch(new RegExp(`^${traceId}-[0-9a-f]{16}-1$`));
  expect(headers.baggage).toContain(`sentry-trace_id=${traceId}`);
  await expect
    .poll(
      () =>
        transactionsWith("http.server", "GET /items/:id").some(
          (t) => t.contexts?.trace?.trace_id === traceId,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
});

test("with reporting off, page data requests carry no trace headers", async ({ page }) => {
  const dataRequests = recordDataRequests(page);
  await page.goto(new URL("/items", silent.url).href);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Tokyo" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  expect(dataRequests.length).toBeGreaterThan(0);
  for (const request of dataRequests) {
    const headers = await request.allHeaders();
    expect(headers["sentry-trace"]).toBeUndefined();
    expect(headers.baggage).toBeUndefined();
  }
});
