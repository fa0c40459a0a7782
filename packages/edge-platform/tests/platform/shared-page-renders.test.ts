import { afterAll, beforeAll, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { REFRESH_RETRY_MS } from "../../src/local-server/workers-cache.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

/**
 * What shared pages cost the database behind them (packages/edge-platform/docs/caching.md), in workerd: the
 * fixture's /slow and /slow/cached read its database once per render, and fail while /failures/database says
 * it is down. /slow/cached is fresh 60 s, stale 600 s more. The Workers Cache emulation's clock is moved by
 * the test.
 */

let app: ServedBuild;
let clock = Date.now();

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: () => {},
    workersCache: {
      enabled: true,
      purgeLimit: { requestsPerMinute: 1_000_000, burst: 1_000_000 },
      now: () => clock,
    },
  });
});

afterAll(async () => {
  await app?.close();
});

async function get(path: string) {
  const response = await fetch(new URL(path, app.url), { redirect: "manual" });
  const body = await response.text();
  return {
    status: response.status,
    cache: response.headers.get("cf-cache-status"),
    renderedAt: /<time dateTime="([^"]+)"/.exec(body)?.[1],
    body,
  };
}

async function outage(down: boolean) {
  const response = await fetch(new URL("/failures/database", app.url), {
    method: "POST",
    headers: { origin: app.url.origin, "content-type": "application/x-www-form-urlencoded" },
    body: `down=${down ? 1 : 0}`,
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

const workerCalls = () => app.workersCache?.stats().originFetches ?? Number.NaN;

async function databaseReads(): Promise<number> {
  const response = await fetch(new URL("/failures/database.data", app.url));
  const text = await response.text();
  // React Router's turbo-stream encoding of `{ reads, down }`: the number after "reads".
  const reads = /"reads",(\d+)/.exec(text)?.[1];
  if (reads === undefined) throw new Error(`no reads in ${text}`);
  return Number(reads);
}

test("a route whose headers export declares sharing: 20 misses with a cookie are 20 renders, its first included", async () => {
  // The first request for /slow/shared in this server's isolate.
  const before = await databaseReads();
  for (let n = 0; n < 20; n++) {
    const response = await fetch(new URL(`/slow/shared?cb=${n}`, app.url), { headers: { cookie: "a=1" } });
    expect(response.headers.get("cf-cache-status")).toBe("MISS");
    await response.body?.cancel();
  }
  expect((await databaseReads()) - before).toBe(20);
});

test("every miss of a shared page is one render, with a visitor's cookie or without, GET or HEAD", async () => {
  // /slow/cached's headers pass its loader's on, so nothing says it shares before it has rendered: its first
  // miss in the isolate renders twice (the visitor's answer, in the gateway, then the copy); it is then known
  // to share, and the copy it answers is the one stored.
  const beforeFirst = await databaseReads();
  const first = await fetch(new URL("/slow/cached?first", app.url));
  expect(first.headers.get("cf-cache-status")).toBe("MISS");
  await first.text();
  expect((await databaseReads()) - beforeFirst).toBe(2);
  expect((await fetch(new URL("/slow/cached?first", app.url))).headers.get("cf-cache-status")).toBe("HIT");
  for (const [method, cookie] of [
    ["GET", ""],
    ["GET", "a=1"],
    ["HEAD", "a=1"],
  ] as const) {
    const before = await databaseReads();
    for (let n = 0; n < 20; n++) {
      const response = await fetch(new URL(`/slow/cached?cb=${method}-${cookie}-${n}`, app.url), {
        method,
        headers: cookie ? { cookie } : {},
      });
      expect(response.headers.get("cf-cache-status"), `${method} ${cookie}`).toBe("MISS");
      await response.body?.cancel();
    }
    expect((await databaseReads()) - before, `${method} with cookie "${cookie}"`).toBe(20);
  }
});

test("a page rendered per request is rendered once per request", async () => {
  const before = await databaseReads();
  for (let n = 0; n < 10; n++) {
    const response = await fetch(new URL(`/slow?cb=${n}`, app.url), { headers: { cookie: "a=1" } });
    expect(await response.text()).toContain("Rendered for a visitor&#x27;s cookie.");
  }
  expect((await databaseReads()) - before).toBe(10);
});

test("inside its stale window a shared page is served to every request through an outage, one refresh per interval; after it, the error page", async () => {
  const stored = await get("/slow/cached?outage");
  expect(stored).toMatchObject({ status: 200, cache: "MISS" });
  await outage(true);
  try {
    // 61 s old: stale, inside its 600 s window. The first request starts a refresh, which fails.
    clock += 61_000;
    expect(await get("/slow/cached?outage")).toMatchObject({ status: 200, cache: "UPDATING" });
    await app.workersCache?.settled();
    const afterFirstAttempt = workerCalls();

    // Every request after it: the copy, without another render, until the retry interval has passed.
    const during = await Promise.all(Array.from({ length: 30 }, () => get("/slow/cached?outage")));
    for (const answer of during) {
      expect(answer).toMatchObject({ status: 200, cache: "STALE", renderedAt: stored.renderedAt });
    }
    await app.workersCache?.settled();
    expect(workerCalls()).toBe(afterFirstAttempt);

    // Through the rest of the window, one attempt per interval at most, and the copy to every request.
    const windowEnd = 60_000 + 600_000;
    let age = 61_000;
    let requests = 0;
    while (age + 15_000 < windowEnd) {
      clock += 15_000;
      age += 15_000;
      const answers = await Promise.all([get("/slow/cached?outage"), get("/slow/cached?outage")]);
      requests += answers.length;
      for (const answer of answers)
        expect(answer).toMatchObject({ status: 200, renderedAt: stored.renderedAt });
      await app.workersCache?.settled();
    }
    const attempts = workerCalls() - afterFirstAttempt;
    expect(attempts).toBeGreaterThan(0);
    expect(attempts).toBeLessThanOrEqual(Math.ceil((windowEnd - 61_000) / REFRESH_RETRY_MS));
    expect(attempts).toBeLessThan(requests);

    // Past the window: the app's error page, not a copy older than the route allows.
    clock += windowEnd - age + 1_000;
    const after = await get("/slow/cached?outage");
    expect(after.status).toBe(500);
    expect(after.renderedAt).toBeUndefined();
  } finally {
    await outage(false);
  }
  // The database back: the next request renders and stores a new copy.
  const recovered = await get("/slow/cached?outage");
  expect(recovered).toMatchObject({ status: 200 });
  expect(recovered.renderedAt).not.toBe(stored.renderedAt);
});
