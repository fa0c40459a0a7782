import { type ServedBuild, serveBuild } from "../../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../../src/testing/build-under-test.ts";
import {
  type IngestStandIn,
  receivedEvents,
  startIngestStandIn,
} from "../../../src/testing/ingest-stand-in.ts";
import { expect, navigateWithRouter, test, waitForHydration } from "../../../src/testing/playwright";
import { SERVER_START_TIMEOUT_MS } from "./fixture-app";

// A self-hosted Sentry (any DSN that is not Sentry's SaaS ingest) gets no tunnel: the browser reports to it
// directly, so the page's Content-Security-Policy must allow its origin (packages/edge-platform/src/config.server.ts,
// `directOrigin`). The stand-in listens on another port than the app: another origin, which `connect-src
// 'self'` alone would block.

let selfHosted: IngestStandIn;
let app: ServedBuild;
let dsn: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SERVER_START_TIMEOUT_MS);
  selfHosted = await startIngestStandIn();
  dsn = `http://0123456789abcdef0123456789abcdef@${new URL(selfHosted.origin).host}/42`;
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: { ...TEST_VARS, SENTRY_DSN: dsn, SENTRY_TRACES_SAMPLE_RATE: "0" },
    onLog: () => {},
  });
});

test.afterAll(async () => {
  await app?.close();
  await selfHosted?.close();
});

test("a client error reaches a self-hosted Sentry directly, allowed by the page's policy", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Reference failure: this component throws in the browser/);
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(new URL("/now", app.url).href);
  expect(response?.headers()["content-security-policy"]).toContain(`connect-src 'self' ${selfHosted.origin}`);
  await waitForHydration(page);
  await navigateWithRouter(page, "/failures/client");
  await page.getByRole("button", { name: "Throw in the browser" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");

  await expect.poll(() => receivedEvents(selfHosted.received).length, { timeout: 15_000 }).toBe(1);
  const [request] = selfHosted.received;
  expect(request?.url).toMatch(/^\/api\/42\/envelope\//);
  // Straight from the page, not through the Worker's tunnel.
  expect(request?.headers.origin).toBe(app.url.origin);
  const [event] = receivedEvents(selfHosted.received);
  expect(JSON.stringify(event)).toContain("Reference failure: this component throws in the browser");
  expect(violations).toEqual([]);
  // The tunnel is off for a self-hosted DSN.
  expect((await page.request.post(new URL("/monitoring", app.url).href, { data: "{}" })).status()).toBe(404);
});
