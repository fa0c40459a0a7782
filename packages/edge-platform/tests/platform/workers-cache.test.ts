import { afterAll, beforeAll, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { rawRequest } from "../../src/testing/raw-http.ts";

/**
 * The Workers Cache emulation in front of the built Worker in workerd (serve-build.ts): /workers-cached says
 * `Cloudflare-CDN-Cache-Control: max-age=60` and `Cache-Tag: workers-cached` (packages/edge-platform/fixture/app/routes). The
 * cache is turned on here: wrangler.toml does not enable Workers Cache yet.
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: () => {},
    workersCache: { enabled: true },
  });
});

afterAll(async () => {
  await app?.close();
});

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(new URL(path, app.url), { redirect: "manual", ...init });
  return { response, body: await response.text(), status: response.headers.get("cf-cache-status") };
}

function cache() {
  if (!app.workersCache) throw new Error("the Workers Cache emulation is off");
  return app.workersCache;
}

test("a page the cache may keep is a HIT on repeat, without the cache's own headers", async () => {
  const fetchesBefore = cache().stats().originFetches;
  const first = await get("/workers-cached?t=1");
  expect(first.status).toBe("MISS");
  expect(first.body).toContain("<h1>Workers Cache</h1>");
  const second = await get("/workers-cached?t=1");
  expect(second.status).toBe("HIT");
  expect(second.body).toBe(first.body);
  expect(cache().stats().originFetches - fetchesBefore).toBe(1);
  for (const { response } of [first, second]) {
    expect(response.headers.has("Cache-Tag")).toBe(false);
    expect(response.headers.has("Cloudflare-CDN-Cache-Control")).toBe(false);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    // The host guard still compresses what leaves (after the cache, as Cloudflare does).
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
  }
});

test("a purge of its tag, through the app's binding, makes the next request a MISS", async () => {
  await get("/workers-cached?t=2");
  expect((await get("/workers-cached?t=2")).status).toBe("HIT");
  const binding = (await app.miniflare.getBindings<{ WORKERS_CACHE_EMULATION: Fetcher }>())
    .WORKERS_CACHE_EMULATION;
  const purged = await binding.fetch("http://cache/purge", {
    method: "POST",
    body: JSON.stringify({ tags: ["Workers-Cached"] }),
  });
  expect(await purged.json()).toEqual({ success: true, errors: [] });
  const after = await get("/workers-cached?t=2");
  expect(after.status).toBe("MISS");
  expect((await get("/workers-cached?t=2")).status).toBe("HIT");
});

test("the binding refuses other methods and bodies that are not JSON", async () => {
  const binding = (await app.miniflare.getBindings<{ WORKERS_CACHE_EMULATION: Fetcher }>())
    .WORKERS_CACHE_EMULATION;
  expect((await binding.fetch("http://cache/purge")).status).toBe(405);
  expect((await binding.fetch("http://cache/purge", { method: "POST", body: "{" })).status).toBe(400);
});

test("per-request pages, POSTs and the host guard's refusals are not kept", async () => {
  // A page rendered per request never reaches the cache: the gateway answers it (worker/shared-pages.ts).
  expect((await get("/now")).status).toBeNull();
  // Other methods never reach the emulation (the host guard sends them to the app, bodies streamed).
  expect((await get("/now", { method: "POST" })).status).toBeNull();
  // DNS rebinding: the guard in front of the cache still refuses hosts it does not serve.
  const fetchesBefore = cache().stats().originFetches;
  const refused = await rawRequest(
    app.url,
    "GET /workers-cached HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
  );
  expect(refused.status).toBe(403);
  expect(refused.headers.has("cf-cache-status")).toBe(false);
  expect(cache().stats().originFetches).toBe(fetchesBefore);
});
