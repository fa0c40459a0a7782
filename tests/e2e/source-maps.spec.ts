import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import {
  debugIdOfBundle,
  type IngestStandIn,
  receivedEvents,
  startIngestStandIn,
  TEST_DSN,
  TEST_VARS,
} from "edge-platform/testing";
import { expect, test, waitForHydration } from "edge-platform/testing/playwright";

// packages/edge-platform/docs/decisions/009-source-maps.md: an error event reaching Sentry (here its stand-in) names, in
// `debug_meta.images`, the debug ID of the file each frame ran in, and that ID is the one in the file and in
// its map (build/sourcemaps), which is how Sentry finds the map to read the stack with.

const SOURCE_MAPS = resolve(import.meta.dirname, "../../build/sourcemaps");

type Frame = { filename?: string; abs_path?: string; function?: string };
type SentryEvent = {
  exception?: { values?: { value?: string; stacktrace?: { frames?: Frame[] } }[] };
  debug_meta?: { images?: { type?: string; code_file?: string; debug_id?: string }[] };
};

let ingest: IngestStandIn;
let app: ServedBuild;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  ingest = await startIngestStandIn();
  app = await serveBuild({
    vars: { ...TEST_VARS, SENTRY_DSN: TEST_DSN, SENTRY_INGEST_TEST_ORIGIN: ingest.origin },
    onLog: () => {},
  });
});

test.afterAll(async () => {
  await app?.close();
  await ingest?.close();
});

test("a client error's event carries the debug ID of the file it was thrown in, the one its map carries", async ({
  page,
  pageProblems,
}) => {
  pageProblems.expect(/Reference failure: this component throws in the browser/);
  await page.goto(new URL("/failures/client", app.url).href);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Throw in the browser" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");
  await expect.poll(() => receivedEvents(ingest.received).length, { timeout: 15_000 }).toBe(1);

  const event = receivedEvents(ingest.received)[0] as SentryEvent;
  const exception = event.exception?.values?.find((value) => value.value?.includes("throws in the browser"));
  // Sentry lists frames oldest first: the last one of the app's assets is where it was thrown.
  const thrownIn = (exception?.stacktrace?.frames ?? [])
    .map((frame) => frame.abs_path ?? frame.filename ?? "")
    .filter((file) => new URL(file, app.url).pathname.startsWith("/assets/"))
    .at(-1);
  expect(thrownIn).toMatch(/\/assets\/failure-client-[\w-]+\.js$/);
  const path = new URL(thrownIn ?? "", app.url).pathname;

  const fileDebugId = debugIdOfBundle(await (await fetch(new URL(path, app.url))).text());
  const map = JSON.parse(await readFile(resolve(SOURCE_MAPS, `client${path}.map`), "utf8"));
  const image = event.debug_meta?.images?.find((candidate) => candidate.code_file === thrownIn);
  expect(fileDebugId).toBeDefined();
  expect(image).toEqual({ type: "sourcemap", code_file: thrownIn, debug_id: fileDebugId });
  expect(map.debugId).toBe(fileDebugId);
  // The map is not public: the Worker answers 404 for it.
  expect((await fetch(new URL(`${path}.map`, app.url))).status).toBe(404);
});
