import { afterAll, beforeAll, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../app/platform/local-server/serve-build.ts";
import { recordPurge } from "../../app/platform/page-cache/purge.server.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../support/build-under-test.ts";

/**
 * The edge page cache against the fixture app (docs/decisions/017-edge-page-cache.md): /slow/cached opts in
 * through its loader's headers (and the route's `headers` export passing them on), /slow does not.
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

function get(path: string) {
  return fetch(new URL(path, app.url), { redirect: "manual" });
}

async function cacheStatusOnceStored(path: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await get(path);
    await response.body?.cancel();
    const status = response.headers.get("Cache-Status") ?? "";
    if (/; hit;/.test(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never became a hit`);
}

test("a route that opts in is a hit on repeat; one that does not is rendered every time", async () => {
  expect(await cacheStatusOnceStored("/slow/cached?t=1")).toMatch(/^edge-page-cache; hit; ttl=\d+; key=/);
  for (let attempt = 0; attempt < 2; attempt++) {
    const uncached = await get("/slow");
    expect(uncached.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; key=/);
    expect(await uncached.text()).toMatch(/ nonce="/);
  }
});

test("a hit has no nonce, a hashed policy and the browser's per-request caching", async () => {
  await cacheStatusOnceStored("/slow/cached?t=2");
  const hit = await get("/slow/cached?t=2");
  expect(await hit.text()).not.toContain("nonce=");
  expect(hit.headers.get("Content-Security-Policy")).toMatch(/script-src 'sha256-[^']+'/);
  expect(hit.headers.get("Cache-Control")).toBe("private, no-store");
});

test("a purge of the route's tag makes the next request render and store a new copy", async () => {
  await cacheStatusOnceStored("/slow/cached?t=3");
  await recordPurge(await app.miniflare.getD1Database("DB"), { tags: ["slow"] }, Date.now());
  // Recorded from outside the Worker: its isolate sees it once its purge check (1 s) runs again.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const after = await get("/slow/cached?t=3");
  expect(after.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; stored; key=/);
});

test("a copy the cache lost is rendered once, from the key, and stored again", async () => {
  const status = await cacheStatusOnceStored("/slow/cached?t=4");
  const key = status.match(/key="([^"]+)"/)?.[1] ?? "";
  const cache = (await app.miniflare.getCaches()).default;
  expect(await cache.delete(key)).toBe(true);
  const response = await get("/slow/cached?t=4");
  expect(response.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; stored; key=/);
  expect(await response.text()).not.toContain("nonce=");
});
