import { receivedEvents, receivedTransactions } from "../../../src/testing/ingest-stand-in.ts";
import { expect, navigateWithRouter, test, waitForHydration } from "../../../src/testing/playwright";
import { fixtureWithReporting } from "../../support/reporting-fixture.ts";

// Browser failures are reported whether or not the visit is traced: the same cases as reporting.spec.ts,
// at SENTRY_TRACES_SAMPLE_RATE 0, where nothing but errors is sent.

const reporting = fixtureWithReporting(test, { SENTRY_TRACES_SAMPLE_RATE: "0" });

type ErrorEvent = { exception?: { values?: { value?: string; mechanism?: { handled?: boolean } }[] } };

async function oneEvent(): Promise<ErrorEvent | undefined> {
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const events = receivedEvents(reporting.ingest.received) as ErrorEvent[];
  expect(events).toHaveLength(1);
  expect(receivedTransactions(reporting.ingest.received)).toEqual([]);
  return events[0];
}

test("a route's meta that throws on a client navigation is reported once, unhandled", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/this route's meta export throws/);
  await page.goto(new URL("/now", reporting.app.url).href);
  await waitForHydration(page);
  await navigateWithRouter(page, "/failures/meta");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");
  const event = await oneEvent();
  expect(event?.exception?.values?.at(-1)?.value).toContain("this route's meta export throws");
  expect(event?.exception?.values?.at(-1)?.mechanism?.handled).toBe(false);
});

test("a hydration mismatch is reported once, handled", async ({ page, pageProblems }) => {
  pageProblems.expect(/Minified React error #418|Hydration failed/);
  await page.goto(new URL("/failures/hydration", reporting.app.url).href);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rendered in the browser");
  const event = await oneEvent();
  expect(event?.exception?.values?.at(-1)?.mechanism?.handled).toBe(true);
});
