/**
 * npm run faults: injects the faults of packages/edge-platform/docs/RELIABILITY.md one at a time (127.0.0.1 only, bounded, stops by itself)
 * and prints, for each, what the user gets, what is kept, and the measured effect on page latency:
 *
 * - the Sentry ingest (a local stand-in) down, slow (30 s), answering 429 with Retry-After, answering
 *   garbage, or resetting the connection: the tunnel's answer and time, a page's latency with every request
 *   traced (its report goes to the failing ingest), and whether a server error still shows its digest;
 * - a D1 error on write: the reference's /messages post (skipped, and said, on a product without it);
 * - in Chromium, a slow (5 s) route module, a failing route module and failing page data on a client
 *   navigation, against a healthy navigation.
 *
 * The build: bench/subject.ts (the product's, or the platform's fixture on a product without /now and /items/ams).
 * Ends with one summary line; exits 1 when a fault's outcome is not the intended one.
 */
import { createServer as createHttpServer } from "node:http";
import { chromium, type Page } from "@playwright/test";
import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import {
  CHROMIUM_ARGS,
  CHROMIUM_EXECUTABLE,
  freePort,
  reportingVars,
  startIngestStandIn,
  TEST_DSN,
  TEST_TUNNEL_QUERY,
  TEST_VARS,
} from "edge-platform/testing";
import { percentile } from "./stats.ts";
import { benchBuild } from "./subject.ts";

const PAGE_SAMPLES = Number(process.env.FAULT_SAMPLES ?? 40);
const BUILD = await benchBuild(["/now", "/items/ams"]);
const DIGEST = /Digest: (?:<!-- -->)?([0-9a-z]{13})</;
const envelope = `${JSON.stringify({ event_id: "c".repeat(32), dsn: TEST_DSN })}\n${JSON.stringify({ type: "event" })}\n{}\n`;

type Row = { fault: string; user: string; kept: string; measured: string; ok: boolean };
const rows: Row[] = [];

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

/** p50 of sequential GETs of a dynamic page: every one is traced, so every one sends a report. */
async function pageLatency(app: ServedBuild): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < PAGE_SAMPLES; index++) {
    const { ms } = await timed(async () => (await fetch(new URL("/now", app.url))).arrayBuffer());
    samples.push(ms);
  }
  return percentile(samples, 50);
}

// ---------------------------------------------------------------------------------------------------
// The ingest: one stand-in per behaviour; the Worker is served with it as its ingest.

type IngestFault = {
  name: string;
  /** The tunnel status that is right for this fault. */
  tunnelStatus: number;
  user: string;
  start(): Promise<{ origin: string; close(): Promise<void> }>;
};

const standIn =
  (answer?: Parameters<Awaited<ReturnType<typeof startIngestStandIn>>["answerWith"]>[0]) => async () => {
    const ingest = await startIngestStandIn();
    if (answer) ingest.answerWith(answer);
    return ingest;
  };

const INGEST_FAULTS: IngestFault[] = [
  {
    name: "ingest healthy (baseline)",
    tunnelStatus: 200,
    user: "nothing: reports are delivered",
    start: standIn(),
  },
  {
    name: "ingest down (connection refused)",
    tunnelStatus: 502,
    user: "nothing; the browser SDK gets 502 and drops the report",
    start: async () => ({ origin: `http://127.0.0.1:${await freePort()}`, close: async () => {} }),
  },
  {
    name: "ingest slow (answers after 30 s)",
    tunnelStatus: 504,
    user: "nothing; the tunnel gives up at its 10 s time-out (504)",
    start: standIn((_, response) => {
      setTimeout(() => response.writeHead(200).end("{}"), 30_000).unref();
    }),
  },
  {
    name: "ingest 429 with Retry-After: 60",
    tunnelStatus: 429,
    user: "nothing; the SDK is told to back off for 60 s",
    start: standIn((_, response) =>
      response.writeHead(429, { "Retry-After": "60", "X-Sentry-Rate-Limits": "60::organization" }).end(),
    ),
  },
  {
    name: "ingest answers garbage (200, HTML)",
    tunnelStatus: 200,
    user: "nothing; the status is passed on, the body is not interpreted",
    start: standIn((_, response) =>
      response.writeHead(200, { "Content-Type": "text/html" }).end("<html>\u0000garbage"),
    ),
  },
  {
    name: "ingest resets the connection",
    tunnelStatus: 502,
    user: "nothing; the tunnel answers 502",
    start: async () => {
      const server = createHttpServer((request) => request.socket.destroy());
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      return {
        origin: `http://127.0.0.1:${port}`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    },
  },
];

let healthyPageMs = 0;
for (const fault of INGEST_FAULTS) {
  const ingest = await fault.start();
  const logs: string[] = [];
  const app = await serveBuild({
    buildDirectory: BUILD,
    vars: reportingVars(ingest, { SENTRY_TRACES_SAMPLE_RATE: "1" }),
    onLog: (log) => logs.push(log.message),
  });
  try {
    await (await fetch(new URL("/now", app.url))).arrayBuffer();
    const tunnel = await timed(async () => {
      const response = await fetch(new URL(`/monitoring?${TEST_TUNNEL_QUERY}`, app.url), {
        method: "POST",
        body: envelope,
      });
      await response.arrayBuffer();
      return response;
    });
    const pageMs = await pageLatency(app);
    if (fault.tunnelStatus === 200 && fault.name.includes("baseline")) healthyPageMs = pageMs;
    const failure = await timed(async () => (await fetch(new URL("/failures/loader", app.url))).text());
    const digest = failure.value.match(DIGEST)?.[1];
    const logged = digest !== undefined && logs.some((line) => line.includes(digest));
    const retryAfter = tunnel.value.headers.get("retry-after");
    rows.push({
      fault: fault.name,
      user: fault.user,
      kept: `server error page with digest ${digest ? "shown" : "MISSING"}; digest ${logged ? "in the log" : "NOT LOGGED"}`,
      measured:
        `tunnel ${tunnel.value.status}${retryAfter ? ` (Retry-After ${retryAfter})` : ""} in ${tunnel.ms.toFixed(0)} ms; ` +
        `/now p50 ${pageMs.toFixed(1)} ms${healthyPageMs ? ` (${(pageMs / healthyPageMs).toFixed(2)}x healthy)` : ""}; ` +
        `error page ${failure.ms.toFixed(0)} ms`,
      ok: tunnel.value.status === fault.tunnelStatus && Boolean(digest) && logged,
    });
  } finally {
    await app.close();
    await ingest.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// D1: the write fails (the table is gone for the duration of the post).

const product = await serveBuild({ vars: TEST_VARS, onLog: () => {} });
const messagesForm = await (await fetch(new URL("/messages", product.url))).text();
await product.close();
if (!/name="submissionId"/.test(messagesForm))
  console.log("D1 error on write: skipped, this product has no /messages form (the reference's).");
else {
  const app = await serveBuild({ vars: TEST_VARS, onLog: () => {} });
  try {
    const html = await (await fetch(new URL("/messages", app.url))).text();
    const submissionId = html.match(/name="submissionId" value="([^"]+)"/)?.[1] ?? "";
    const db = await app.miniflare.getD1Database("DB");
    const post = () =>
      fetch(new URL("/messages", app.url), {
        method: "POST",
        headers: { Origin: app.url.origin },
        body: new URLSearchParams({ submissionId, name: "Ada", text: "kept through a database failure" }),
        redirect: "manual",
      });
    await db.exec("ALTER TABLE messages RENAME TO messages_away");
    const failed = await timed(async () => {
      const response = await post();
      return { status: response.status, body: await response.text() };
    });
    await db.exec("ALTER TABLE messages_away RENAME TO messages");
    // The reference's messages table (what tests/support/reference/messages-db.ts counts).
    const rowsAfter =
      (await db.prepare("SELECT count(*) AS n FROM messages").first<{ n: number }>())?.n ?? -1;
    const healthy = await timed(async () => (await post()).status);
    const keptText = failed.value.body.includes("kept through a database failure");
    const digest = failed.value.body.match(DIGEST)?.[1];
    rows.push({
      fault: "D1 error on write",
      user: `${failed.value.status}: "Your message could not be saved. Please try again in a moment." with a digest`,
      kept: `the typed name and message ${keptText ? "kept in the form" : "LOST"}; nothing written (${rowsAfter} rows); the same post succeeds after`,
      measured: `failed post ${failed.ms.toFixed(0)} ms; healthy post ${healthy.ms.toFixed(0)} ms (${healthy.value})`,
      ok:
        failed.value.status === 503 &&
        keptText &&
        Boolean(digest) &&
        rowsAfter === 0 &&
        healthy.value === 303,
    });
  } finally {
    await app.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The browser: route modules and page data failing during a client navigation.

type BrowserFault = {
  name: string;
  user: string;
  setUp(page: Page): Promise<unknown>;
  fullNavigation: boolean;
};
const ITEM_MODULE = /\/assets\/item-[^/]+\.js$/;
const BROWSER_FAULTS: BrowserFault[] = [
  {
    name: "healthy client navigation (baseline)",
    user: "the page",
    fullNavigation: false,
    setUp: async () => {},
  },
  {
    name: "route module slow (5 s)",
    user: "a full navigation to the target after the 3.8 s route-loading time-out",
    fullNavigation: true,
    setUp: (page) =>
      page.route(
        ITEM_MODULE,
        async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 5_000));
          await route.continue().catch(() => {});
        },
        { times: 1 },
      ),
  },
  {
    name: "route module fails (500)",
    user: "a full navigation to the target",
    fullNavigation: true,
    setUp: (page) =>
      page.route(ITEM_MODULE, (route) => route.fulfill({ status: 500, body: "" }), { times: 1 }),
  },
  {
    name: "page data fails (network error)",
    user: "a full navigation to the target",
    fullNavigation: true,
    setUp: (page) => page.route(/\/items\/ams\.data/, (route) => route.abort("failed"), { times: 1 }),
  },
  {
    name: "page data answered by a proxy (HTML 502)",
    user: "a full navigation to the target",
    fullNavigation: true,
    setUp: (page) =>
      page.route(
        /\/items\/ams\.data/,
        (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }),
        {
          times: 1,
        },
      ),
  },
];

{
  const app = await serveBuild({ buildDirectory: BUILD, vars: TEST_VARS, onLog: () => {} });
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  try {
    for (const fault of BROWSER_FAULTS) {
      const page = await browser.newPage();
      await fault.setUp(page);
      // From a page with no link to the target, so no prefetch loads its code before the fault is in place.
      await page.goto(new URL("/now", app.url).href);
      await page.waitForFunction(() => document.documentElement.dataset.navigation === "ready");
      await page.evaluate(() => {
        (window as unknown as { __mark: boolean }).__mark = true;
      });
      const navigation = await timed(async () => {
        // As a <Link> to it would (the router's navigate, which the platform wraps).
        void page
          .evaluate(() =>
            (
              window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }
            ).__reactRouterDataRouter.navigate("/items/ams"),
          )
          .catch(() => {});
        await page.getByRole("heading", { level: 1, name: "Amsterdam" }).waitFor({ timeout: 15_000 });
      });
      const sameDocument = await page.evaluate(
        () => (window as unknown as { __mark?: boolean }).__mark === true,
      );
      rows.push({
        fault: fault.name,
        user: fault.user,
        kept: `the target URL and history entry (${new URL(page.url()).pathname}); ${sameDocument ? "same document" : "a document load"}`,
        measured: `navigation start to target visible ${navigation.ms.toFixed(0)} ms`,
        ok: sameDocument === !fault.fullNavigation && new URL(page.url()).pathname === "/items/ams",
      });
      await page.close();
    }
  } finally {
    await browser.close();
    await app.close();
  }
}

// ---------------------------------------------------------------------------------------------------

console.log("");
for (const row of rows) {
  console.log(`${row.ok ? "ok  " : "FAIL"} ${row.fault}`);
  console.log(`     user sees: ${row.user}`);
  console.log(`     kept:      ${row.kept}`);
  console.log(`     measured:  ${row.measured}`);
}
const failed = rows.filter((row) => !row.ok);
console.log(
  `\nfaults: ${rows.length - failed.length}/${rows.length} handled as intended${failed.length ? `; failed: ${failed.map((row) => row.fault).join(", ")}` : ""}`,
);
if (failed.length > 0) process.exitCode = 1;
