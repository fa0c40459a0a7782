import { parseEnvelope, receivedEvents, receivedTransactions } from "../../../src/testing/ingest-stand-in.ts";
import { expect, test, waitForHydration } from "../../../src/testing/playwright";
import { fixtureWithReporting } from "../../support/reporting-fixture.ts";

/**
 * Routes whose `clientLoader` runs as the page hydrates (`clientLoader.hydrate = true`), in the production
 * build: hydration matches the server's HTML, so nothing is thrown, logged or reported. With a
 * `HydrateFallback` the server renders the fallback and the browser must hydrate that same fallback
 * (packages/edge-platform/src/vite/child-compiler-imports.ts says how that went wrong); without
 * one, the server renders the page from its loader's data.
 */

const ROUTES = [
  {
    path: "/client-data/fallback",
    name: "with a HydrateFallback",
    serverRenders: '<main id="main"><p>Loading the client&#x27;s data…</p></main>',
  },
  {
    path: "/client-data/direct",
    name: "without a HydrateFallback",
    serverRenders: '<main id="main"><h1>Client data without a fallback</h1>',
  },
];

// This file runs its own server: reporting on, sent to a stand-in for Sentry that the test reads.
const reporting = fixtureWithReporting(test, { SENTRY_TRACES_SAMPLE_RATE: "1" });

type Session = { status?: string; errors?: number };

function receivedSessions(): Session[] {
  return reporting.ingest.received.flatMap((request) =>
    parseEnvelope(request.body)
      .items.filter((item) => item.header.type === "session")
      .map((item) => JSON.parse(item.payload.toString("utf8")) as Session),
  );
}

for (const { path, name, serverRenders } of ROUTES) {
  test(`a client loader run on hydration ${name}: no hydration error, nothing reported, the session stays healthy`, async ({
    page,
  }) => {
    // The fixtures fail the test on any page error or console error (a hydration mismatch is one).
    const html = await (await page.request.get(new URL(path, reporting.app.url).href)).text();
    expect(html).toContain(serverRenders);

    await page.goto(new URL(path, reporting.app.url).href);
    await waitForHydration(page);
    await expect(page.getByText("Data from the server and client.")).toBeVisible();

    // The SDK loads after hydration and sends what it buffered: the page load's transaction says it did.
    await expect
      .poll(
        () =>
          (receivedTransactions(reporting.ingest.received) as { transaction?: string }[]).some(
            (transaction) => transaction.transaction === path,
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    await expect.poll(() => receivedSessions().length, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1_000);
    expect(receivedEvents(reporting.ingest.received)).toEqual([]);
    // An uncaught error would make it "unhandled" (or "crashed") with errors: 1.
    for (const session of receivedSessions()) {
      expect(session.status).toMatch(/^(ok|exited)$/);
      expect(session.errors ?? 0).toBe(0);
    }
  });
}
