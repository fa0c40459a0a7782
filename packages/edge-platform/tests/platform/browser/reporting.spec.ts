import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { ROUTE_LOADING_TIMEOUT_MS } from "../../../src/constants.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../../src/testing/build-under-test.ts";
import { debugIdOfBundle } from "../../../src/testing/index.ts";
import {
  receivedEvents,
  receivedTransactions,
  TEST_TUNNEL_QUERY,
} from "../../../src/testing/ingest-stand-in.ts";
import { expect, navigateWithRouter, test, waitForHydration } from "../../../src/testing/playwright";
import { fixtureWithReporting } from "../../support/reporting-fixture.ts";

const TUNNEL = `/monitoring?${TEST_TUNNEL_QUERY}`;
const FAILED_RESOURCE = /Failed to load resource: the server responded with a status of (404|500)/;

// This file runs its own server: reporting on, sent to a stand-in for Sentry that the test reads.
const reporting = fixtureWithReporting(test, { SENTRY_TRACES_SAMPLE_RATE: "1" });

function url(path: string): string {
  return new URL(path, reporting.app.url).href;
}

type SentryEvent = {
  exception?: {
    values?: { value?: string; stacktrace?: { frames?: { filename?: string; abs_path?: string }[] } }[];
  };
  debug_meta?: { images?: { type?: string; code_file?: string; debug_id?: string }[] };
};

type Transaction = {
  transaction?: string;
  contexts?: { trace?: { op?: string; data?: Record<string, unknown> } };
};

/**
 * Waits until a browser transaction named `name` reached the stand-in: the SDK is loaded and sending. A page
 * load unless told: the test before may have ended on a navigation to the same route, its transaction sent as
 * its page closed, after the stand-in was emptied for this test.
 */
async function waitForTransaction(name: string, op: "pageload" | "navigation" = "pageload"): Promise<void> {
  await expect
    .poll(
      () =>
        (receivedTransactions(reporting.ingest.received) as Transaction[]).some(
          (t) => t.transaction === name && t.contexts?.trace?.op === op,
        ),
      {
        timeout: 15_000,
      },
    )
    .toBe(true);
}

function browserTransactions(): Transaction[] {
  return (receivedTransactions(reporting.ingest.received) as Transaction[]).filter((transaction) =>
    ["pageload", "navigation"].includes(transaction.contexts?.trace?.op ?? ""),
  );
}

for (const path of ["/", "/now"]) {
  test(`the first-load scripts of ${path} contain no Sentry code`, async ({ request }) => {
    const html = await (await request.get(url(path))).text();
    const sources = [
      ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+)"/g),
    ].map((match) => match[1] ?? "");
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) {
      const code = await (await request.get(url(source))).text();
      expect(code, source).not.toMatch(/__SENTRY__|sentry\.javascript|@sentry\//);
    }
  });
}

test("a client error is reported once, through /monitoring, with the debug ID of the file it was thrown in", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Reference failure: this component throws in the browser/);
  const tunnelled: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/monitoring"))
      tunnelled.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  await page.goto(url("/failures/client"));
  await waitForHydration(page);
  await page.getByRole("button", { name: "Throw in the browser" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");

  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await page.waitForTimeout(1_000);
  const events = receivedEvents(reporting.ingest.received);
  expect(events).toHaveLength(1);
  expect(JSON.stringify(events[0]?.exception)).toContain("this component throws in the browser");
  expect(tunnelled.length).toBeGreaterThan(0);
  expect(tunnelled.every((path) => path === TUNNEL)).toBe(true);

  // docs/decisions/009-source-maps.md: the event names, in `debug_meta.images`, the debug ID of the file it was
  // thrown in, the ID that file and its map (build/sourcemaps) carry: how Sentry finds the map to read it with.
  const event = events[0] as SentryEvent;
  const exception = event.exception?.values?.find((value) => value.value?.includes("throws in the browser"));
  // Sentry lists frames oldest first: the last one of the app's assets is where it was thrown.
  const thrownIn = (exception?.stacktrace?.frames ?? [])
    .map((frame) => frame.abs_path ?? frame.filename ?? "")
    .filter((file) => new URL(file, reporting.app.url).pathname.startsWith("/assets/"))
    .at(-1);
  expect(thrownIn).toMatch(/\/assets\/failure-client-[\w-]+\.js$/);
  const path = new URL(thrownIn ?? "", reporting.app.url).pathname;
  const fileDebugId = debugIdOfBundle(await (await fetch(url(path))).text());
  const map = JSON.parse(
    await readFile(resolve(FIXTURE_BUILD_DIRECTORY, `sourcemaps/client${path}.map`), "utf8"),
  );
  expect(fileDebugId).toBeDefined();
  expect(event.debug_meta?.images?.find((image) => image.code_file === thrownIn)).toEqual({
    type: "sourcemap",
    code_file: thrownIn,
    debug_id: fileDebugId,
  });
  expect(map.debugId).toBe(fileDebugId);
  // The map is not public: the Worker answers 404 for it.
  expect((await fetch(url(`${path}.map`))).status).toBe(404);
});

test("an error thrown before the SDK loads is buffered, reported, and joins the page load with its route", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/early failure before the SDK/);
  // Thrown before the load event; the SDK is only imported after it, when the browser is idle.
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      setTimeout(() => {
        throw new Error("early failure before the SDK");
      });
    });
  });
  await page.goto(url("/now"));
  await expect
    .poll(() => JSON.stringify(receivedEvents(reporting.ingest.received)), { timeout: 15_000 })
    .toContain("early failure before the SDK");
  await waitForTransaction("/now");
  const [event] = receivedEvents(reporting.ingest.received) as (ErrorEvent & {
    contexts?: { trace?: { trace_id?: string } };
  })[];
  const pageLoad = browserTransactions().find(
    (transaction) => transaction.contexts?.trace?.op === "pageload",
  ) as { contexts?: { trace?: { trace_id?: string } } } | undefined;
  expect(event?.transaction).toBe("/now");
  expect(event?.contexts?.trace?.trace_id).toBe(pageLoad?.contexts?.trace?.trace_id);
});

test("a server error is reported once, by the server, with the digest on the page", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(FAILED_RESOURCE);
  await page.goto(url("/failures/loader"));
  const digest = (await page.locator(".digest").textContent())?.replace("Digest: ", "");
  await waitForTransaction("/failures/loader");
  await page.waitForTimeout(500);
  const events = receivedEvents(reporting.ingest.received);
  expect(events).toHaveLength(1);
  expect(events[0]?.tags).toMatchObject({ digest });
});

// Issue 42: React Router hands the browser a bare "Unexpected Server Error" for a streamed promise that
// rejected, which the browser reported as a crash of its own beside the server's event.
for (const arrival of ["a document load", "a client navigation"] as const) {
  test(`a streamed promise that rejects, on ${arrival}: one event, the server's`, async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(/Unexpected Server Error/);
    if (arrival === "a client navigation") {
      await page.goto(url("/now"));
      await waitForHydration(page);
      await waitForTransaction("/now");
      reporting.ingest.received.length = 0;
      await navigateWithRouter(page, "/failures/streamed");
    } else {
      await page.goto(url("/failures/streamed"));
    }
    await expect(page.getByText("The streamed part failed.")).toBeVisible();
    await waitForHydration(page);
    await waitForTransaction(
      "/failures/streamed",
      arrival === "a client navigation" ? "navigation" : "pageload",
    );
    await page.waitForTimeout(1_000);
    const events = receivedEvents(reporting.ingest.received) as {
      tags?: Record<string, string>;
      exception?: { values?: { value?: string }[] };
    }[];
    expect(events).toHaveLength(1);
    // The server's: named by its digest, with the error's own message.
    expect(events[0]?.tags?.digest).toMatch(/^\w+$/);
    expect(events[0]?.exception?.values?.at(-1)?.value).toContain("this streamed promise rejects");
  });
}

test("a 404 page and a back navigation leave no 404 or incomplete transaction", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(FAILED_RESOURCE);
  await page.goto(url("/items"));
  await waitForHydration(page);
  await waitForTransaction("/items");

  await page.getByRole("link", { name: "Tokyo" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  await navigateWithRouter(page, "/items/atlantis");
  await expect(page.getByText("This page could not be found.")).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  await page.goto(url("/no/such/page"));
  await page.goto(url("/now"));
  await waitForTransaction("/now");

  const transactions = browserTransactions();
  const names = transactions.map((transaction) => transaction.transaction);
  expect(names).toContain("/items/:id");
  for (const transaction of transactions) {
    expect(transaction.transaction).toMatch(/^\//);
    expect(transaction.contexts?.trace?.data?.["route.resolved"]).toBe(true);
    expect(transaction.contexts?.trace?.data?.["http.response.status_code"]).not.toBe(404);
  }
  expect(names).not.toContain("/items/atlantis");
  expect(names).not.toContain("-1");
});

type ErrorEvent = {
  transaction?: string;
  exception?: { values?: { type?: string; value?: string; mechanism?: { handled?: boolean } }[] };
};

test("a route's meta that throws on a client navigation: the client-side error page, reported once with its component stack", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/this route's meta export throws/);
  await page.goto(url("/now"));
  await waitForHydration(page);
  await waitForTransaction("/now");
  reporting.ingest.received.length = 0;

  await navigateWithRouter(page, "/failures/meta");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");
  await expect(page).toHaveTitle("Application error");
  await expect(page.getByText("Application Error!")).toHaveCount(0);

  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await page.waitForTimeout(1_000);
  const [event, ...others] = receivedEvents(reporting.ingest.received) as ErrorEvent[];
  expect(others).toEqual([]);
  const values = event?.exception?.values ?? [];
  expect(values.at(-1)?.value).toContain("this route's meta export throws");
  expect(values.at(-1)?.mechanism?.handled).toBe(false);
  // The component stack, as Sentry's React integration attaches it: the error's cause.
  expect(values.some((value) => value.type?.startsWith("React ErrorBoundary"))).toBe(true);

  // The next page renders as usual: the failure belonged to that page only.
  await navigateWithRouter(page, "/now");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await expect(page).not.toHaveTitle("Application error");
});

// Issue 42: React Router rejects a navigation whose route code threw outside every loader and component
// (here `shouldRevalidate`): the click did nothing, and only an unhandled rejection was reported.
test("a shouldRevalidate that throws on a click: the client-side error page, reported once", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/this route's shouldRevalidate throws/);
  await page.goto(url("/failures/revalidate"));
  await waitForHydration(page);
  await waitForTransaction("/failures/revalidate");
  reporting.ingest.received.length = 0;

  await page.getByRole("link", { name: "The same page again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");

  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await page.waitForTimeout(1_000);
  const events = receivedEvents(reporting.ingest.received) as ErrorEvent[];
  expect(events).toHaveLength(1);
  const values = events[0]?.exception?.values ?? [];
  expect(values.at(-1)?.value).toContain("this route's shouldRevalidate throws");
  expect(values.at(-1)?.mechanism?.handled).toBe(false);

  // The next navigation leaves the error page for the page asked for.
  await navigateWithRouter(page, "/now");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
});

/** The item page's route code answers 404 once (a deploy took an old tab's chunk away), then loads. */
async function itemCodeFailsOnce(page: Page, pageProblems: { expect(pattern: RegExp): void }): Promise<void> {
  pageProblems.expect(/Failed to load resource: the server responded with a status of 404/);
  let failed = false;
  await page.route(/\/assets\/item-[^/]+\.js$/, async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.fulfill({ status: 404, body: "" });
  });
}

// Issue 42: the C4 fallback took the visitor to the page, but nothing reached Sentry (the page unloaded, its
// navigation transaction incomplete and dropped). A deploy that breaks old tabs must show up.
test("route code that fails to load: the next page reports the fallback, with the route and the release", async ({
  page,
  pageProblems,
}) => {
  await itemCodeFailsOnce(page, pageProblems);
  await page.goto(url("/now"));
  await waitForHydration(page);
  await waitForTransaction("/now");
  reporting.ingest.received.length = 0;

  void navigateWithRouter(page, "/items/ams").catch(() => {});
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  const [event] = receivedEvents(reporting.ingest.received) as {
    message?: string;
    level?: string;
    release?: string;
    tags?: Record<string, string>;
  }[];
  expect(event?.message).toContain("its route code did not load");
  expect(event?.level).toBe("warning");
  expect(event?.tags).toMatchObject({
    route: "/items/:id",
    "navigation.fallback": "route-code-failed",
    "failed.release": event?.release,
  });
  // Sent once: the page after does not send it again.
  await navigateWithRouter(page, "/now");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await page.reload();
  await waitForHydration(page);
  // The reload's own page load (the navigation to /now has a transaction of that name too).
  await expect
    .poll(
      () =>
        browserTransactions().filter(
          (transaction) =>
            transaction.transaction === "/now" && transaction.contexts?.trace?.op === "pageload",
        ).length,
      { timeout: 15_000 },
    )
    .toBe(1);
  await page.waitForTimeout(500);
  expect(receivedEvents(reporting.ingest.received)).toHaveLength(1);
});

// The other way C4 falls back: the code does not fail, it is too slow. Its own tag says which.
test("route code slower than 3.8 s: the next page reports the fallback as a time-out", async ({ page }) => {
  // The item page's route code is held once, past the time-out (the next document's request of it is answered).
  let held = false;
  await page.route(/\/assets\/item-[^/]+\.js$/, async (route) => {
    if (held) return route.continue();
    held = true;
    await new Promise((resolve) => setTimeout(resolve, ROUTE_LOADING_TIMEOUT_MS + 1_500));
    await route.continue().catch(() => {});
  });
  await page.goto(url("/now"));
  await waitForHydration(page);
  await waitForTransaction("/now");
  reporting.ingest.received.length = 0;

  void navigateWithRouter(page, "/items/ams").catch(() => {});
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam", { timeout: 15_000 });
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  const [event] = receivedEvents(reporting.ingest.received) as {
    message?: string;
    tags?: Record<string, string>;
  }[];
  expect(event?.message).toContain("its route code did not load");
  expect(event?.tags).toMatchObject({ route: "/items/:id", "navigation.fallback": "route-code-timeout" });
});

// A visitor who taps before the page's SDK has loaded: the page being left loads it (an idle callback) while
// the next document is on its way, and took the report, to unload with it unsent (seen in CI).
test("route code that fails to load before the SDK did: the page being left keeps the report for the next", async ({
  page,
  pageProblems,
}) => {
  await itemCodeFailsOnce(page, pageProblems);
  // The first page's SDK is held until the fallback has asked for the next document, which is held until
  // that SDK has loaded and run.
  let leaving = () => {};
  const left = new Promise<void>((resolve) => {
    leaving = resolve;
  });
  const sdkLoaded = page.waitForResponse(/\/assets\/browser-sentry\.client-[^/]+\.js$/);
  await page.route(/\/assets\/browser-sentry\.client-[^/]+\.js$/, async (route) => {
    await left;
    await route.continue();
  });
  await page.route(url("/items/ams"), async (route) => {
    leaving();
    await (await sdkLoaded).finished();
    await page.waitForTimeout(1_000);
    await route.continue();
  });
  await page.goto(url("/now"));
  await waitForHydration(page);
  void navigateWithRouter(page, "/items/ams").catch(() => {});
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  const [event] = receivedEvents(reporting.ingest.received) as {
    message?: string;
    request?: { url?: string };
    tags?: Record<string, string>;
  }[];
  expect(event?.message).toContain("its route code did not load");
  expect(event?.tags?.["navigation.fallback"]).toBe("route-code-failed");
  // Sent by the next page, not by the page that was unloading.
  expect(new URL(event?.request?.url ?? "http://invalid/").pathname).toBe("/items/ams");
});

// C3's fallback, as C4's: the page unloads before it could send anything, so the next page reports it.
test("page data that cannot be fetched: the next page reports the fallback, with what answered", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(
    /Failed to load resource: (net::ERR_CONNECTION_REFUSED|the server responded with a status of 503)/,
  );
  type CarriedEvent = { message?: string; level?: string; release?: string; tags?: Record<string, string> };
  await page.route(/\/items\/ams\.data(\?|$)/, (route) => route.abort("connectionrefused"));
  await page.route(/\/now\.data(\?|$)/, (route) =>
    route.fulfill({ status: 503, contentType: "text/html; charset=utf-8", body: "<p>Try again later</p>" }),
  );
  await page.goto(url("/messages"));
  await waitForHydration(page);
  await waitForTransaction("/messages");
  reporting.ingest.received.length = 0;

  // No answer at all.
  void navigateWithRouter(page, "/items/ams").catch(() => {});
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amsterdam");
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  const [lost] = receivedEvents(reporting.ingest.received) as CarriedEvent[];
  expect(lost?.message).toContain("its page data could not be fetched");
  expect(lost?.level).toBe("warning");
  expect(lost?.tags).toMatchObject({
    route: "/items/:id",
    "navigation.fallback": "page-data-failed",
    "page-data.answer": "none",
    "failed.release": lost?.release,
  });
  reporting.ingest.received.length = 0;

  // A page that is not page data (a proxy's, a portal's): its status and media type, nothing of its body.
  void navigateWithRouter(page, "/now").catch(() => {});
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  const [replaced] = receivedEvents(reporting.ingest.received) as CarriedEvent[];
  expect(replaced?.tags).toMatchObject({
    route: "/now",
    "navigation.fallback": "page-data-failed",
    "page-data.answer": "503 text/html",
  });
  expect(JSON.stringify(replaced)).not.toContain("Try again later");
});

test("a traced document's page load continues the server's trace: one trace per visit; the Sentry SDK loads after hydration (so the first-load check above can fail)", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on("response", (response) => scripts.push(new URL(response.url()).pathname));
  await page.goto(url("/now"));
  const serverTrace = await page.locator('meta[name="sentry-trace"]').getAttribute("content");
  const traceId = serverTrace?.split("-")[0];
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  await waitForTransaction("/now");
  const trace = (name: string) =>
    (
      receivedTransactions(reporting.ingest.received) as {
        transaction?: string;
        contexts?: { trace?: { trace_id?: string } };
      }[]
    )
      .filter((transaction) => transaction.transaction === name)
      .map((transaction) => transaction.contexts?.trace?.trace_id);
  // This visit's own: the stand-in is the file's, and a test before this one may have reloaded /now too, its
  // transactions arriving after this test began (seen once, on a busy machine).
  const ours = (name: string) => trace(name).filter((id) => id === traceId);
  expect(ours("/now")).toEqual([traceId]);
  await expect.poll(() => ours("GET /now"), { timeout: 15_000 }).toEqual([traceId]);
  const sdk = await Promise.all(
    scripts
      .filter((path) => path.endsWith(".js"))
      .map(async (path) => (await page.request.get(url(path))).text()),
  );
  expect(sdk.some((code) => /sentry\.javascript/.test(code))).toBe(true);
});

// Issue 42: React renders a document whose hydration failed again, without the server's trace tags, before
// the lazily loaded SDK reads them.
test("a page whose hydration fails still continues the server's trace", async ({ page, pageProblems }) => {
  pageProblems.expect(/Minified React error #418|Hydration failed/);
  const response = await page.goto(url("/failures/hydration"));
  const serverTrace = /<meta name="sentry-trace" content="([0-9a-f]{32})-/.exec(
    (await response?.text()) ?? "",
  );
  expect(serverTrace?.[1]).toMatch(/^[0-9a-f]{32}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rendered in the browser");
  // The document was rendered again: the tags are gone from it.
  await expect(page.locator('meta[name="sentry-trace"]')).toHaveCount(0);
  await waitForTransaction("/failures/hydration");
  const pageLoad = (
    receivedTransactions(reporting.ingest.received) as {
      transaction?: string;
      contexts?: { trace?: { trace_id?: string } };
    }[]
  ).find((transaction) => transaction.transaction === "/failures/hydration");
  expect(pageLoad?.contexts?.trace?.trace_id).toBe(serverTrace?.[1]);
});

test("a navigation's trace headers carry no URL or query value; a thrown redirect produces no error event", async ({
  page,
}) => {
  const baggage: string[] = [];
  page.on("request", async (request) => {
    if (new URL(request.url()).pathname.endsWith(".data"))
      baggage.push((await request.allHeaders()).baggage ?? "");
  });
  await page.goto(url("/items"));
  await waitForHydration(page);
  await waitForTransaction("/items");
  // /items/NRT's loader throws a redirect to Tokyo's page: followed on a client navigation, and on a document
  // request (below), never an error.
  await navigateWithRouter(page, "/items/NRT");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tokyo");
  await navigateWithRouter(page, "/now?email=someone%40example.com&token=s3cret");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Now");
  // The navigation's own request carries the trace (the platform's prefetches of the same URL may not).
  await expect
    .poll(() => baggage.filter((header) => header.includes("sentry-trace_id=")).length, { timeout: 5_000 })
    .toBeGreaterThan(0);
  for (const header of baggage) expect(header).not.toMatch(/email|someone|token|s3cret|%3F|\?/);

  await (await page.request.get(url("/items/AMS"), { maxRedirects: 0 })).text();
  await page.waitForTimeout(1_500);
  expect(receivedEvents(reporting.ingest.received)).toEqual([]);
});

test("a hydration mismatch React recovers from is reported once, as handled, with its component stack", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Minified React error #418|Hydration failed/);
  await page.goto(url("/failures/hydration"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rendered in the browser");
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await waitForTransaction("/failures/hydration");
  await page.waitForTimeout(500);
  const [event, ...others] = receivedEvents(reporting.ingest.received) as ErrorEvent[];
  expect(others).toEqual([]);
  const values = event?.exception?.values ?? [];
  expect(values.at(-1)?.mechanism?.handled).toBe(true);
  expect(values.some((value) => value.type?.startsWith("React ErrorBoundary"))).toBe(true);
});

test("a client navigation to a route whose headers export throws: the server-side page with the digest of the one event", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(FAILED_RESOURCE);
  await page.goto(url("/now"));
  await waitForHydration(page);
  await waitForTransaction("/now");
  reporting.ingest.received.length = 0;
  await navigateWithRouter(page, "/failures/headers");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("server-side exception");
  const digest = (await page.locator(".digest").textContent())?.replace("Digest: ", "");
  expect(digest).toMatch(/^[0-9a-z]{13}$/);
  await expect.poll(() => receivedEvents(reporting.ingest.received).length, { timeout: 15_000 }).toBe(1);
  await page.waitForTimeout(1_000);
  const events = receivedEvents(reporting.ingest.received);
  expect(events).toHaveLength(1);
  expect(events[0]?.tags).toMatchObject({ digest, route: "/failures/headers" });
});
