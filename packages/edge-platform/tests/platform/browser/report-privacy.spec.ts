import { receivedEvents, receivedTransactions } from "../../../src/testing/ingest-stand-in.ts";
import { expect, navigateWithRouter, test, waitForHydration } from "../../../src/testing/playwright";
import { fixtureWithReporting } from "../../support/reporting-fixture.ts";

// The browser's reports carry none of the visitor's data (packages/edge-platform/src/reporting/report-privacy.ts): page
// URLs whose queries and fragments hold an email address, a token and an id number, a cookie with them,
// client navigations between such URLs, a traced page load and a client error. The stand-in's raw bytes
// are searched; the reports themselves must arrive, so the test cannot pass on silence.

const EMAIL = "jane.doe@example.com";
const TOKEN = "tok_live_5f2a9c81d4e6";
const ID_NUMBER = "123-45-6789";
const SECRETS = [EMAIL, encodeURIComponent(EMAIL), TOKEN, ID_NUMBER];
const QUERY = `email=${encodeURIComponent(EMAIL)}&token=${TOKEN}&ssn=${ID_NUMBER}`;

const reporting = fixtureWithReporting(test, { SENTRY_TRACES_SAMPLE_RATE: "1" });

test("a traced page load, client navigations and a client error send no query, fragment or cookie", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Reference failure: this component throws in the browser/);
  await page
    .context()
    .addCookies([{ name: "session", value: `${TOKEN}-${ID_NUMBER}`, url: reporting.app.url.href }]);
  await page.goto(new URL(`/now?${QUERY}#${EMAIL}`, reporting.app.url).href);
  await waitForHydration(page);
  await navigateWithRouter(page, `/items?${QUERY}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Items");
  await navigateWithRouter(page, `/failures/client?${QUERY}#${EMAIL}`);
  await page.getByRole("button", { name: "Throw in the browser" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");

  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await expect
    .poll(() => receivedTransactions(reporting.ingest.received).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  const bytes = Buffer.concat(reporting.ingest.received.map((request) => request.body)).toString("utf8");
  for (const secret of SECRETS) expect(bytes, secret).not.toContain(secret);
  // The reports still say where things happened, by path.
  expect(bytes).toContain("/failures/client");
});
