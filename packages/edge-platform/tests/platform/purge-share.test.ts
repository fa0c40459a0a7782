import { afterAll, beforeAll, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { inOneWindow } from "../../src/testing/rate-limit-window.ts";

/**
 * One client's writes cannot spend the purges another visitor's write needs
 * (packages/edge-platform/docs/caching.md, "Purging on write"), with wrangler.toml's own PURGE_RATE_LIMIT (two
 * a minute per client) and the emulation's purge rate as Cloudflare's (five a minute, bursts of 25). Two
 * clients: the local server states each request's CLIENT header as its CF-Connecting-IP (serveBuild's
 * test-only `clientAddressHeader`), as Cloudflare states a visitor's address.
 */

const CLIENT = "x-test-client-address";

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: () => {},
    clientAddressHeader: CLIENT,
  });
});

afterAll(async () => {
  await app?.close();
});

/** A purging write (the fixture's /slow/purge, writes unlimited) from a client address; its redirect. */
async function postFrom(address: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(new URL("/slow/purge", app.url), {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: app.url.origin,
      "content-type": "application/x-www-form-urlencoded",
      [CLIENT]: address,
    },
    body: "by=tag",
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

async function read() {
  const response = await fetch(new URL("/slow/cached", app.url));
  const body = await response.text();
  return {
    cache: response.headers.get("cf-cache-status"),
    renderedAt: /<time dateTime="([^"]+)"/.exec(body)?.[1],
  };
}

test("a client posting as fast as it can spends its own share of purges, never another visitor's", async () => {
  await read();
  // The flood in one of PURGE_RATE_LIMIT's 60 s windows: across two, the second window's count starts again and a
  // third purge goes through (this failed once in CI, the flood taking seconds on a busy machine).
  await inOneWindow(60, 20_000);
  const flood: { status: number; location: string | null }[] = [];
  for (let n = 0; n < 20; n++) flood.push(await postFrom("192.0.2.1"));
  expect(flood.every(({ status }) => status === 303)).toBe(true);
  // Its first two purges went through; past its share its writer is sent to a fresh copy of its own.
  expect(flood.slice(0, 2).map(({ location }) => location)).toEqual(["/slow/cached", "/slow/cached"]);
  expect(flood.slice(2).every(({ location }) => location?.startsWith("/slow/cached?fresh="))).toBe(true);

  // Another visitor's write: its purge goes through, its redirect is the page itself...
  await read();
  const before = await read();
  expect(before.cache).toBe("HIT");
  expect(await postFrom("198.51.100.7")).toEqual({ status: 303, location: "/slow/cached" });
  // ...and the next reader gets a copy rendered after it.
  const after = await read();
  expect(after.cache).toBe("MISS");
  expect(after.renderedAt).not.toBe(before.renderedAt);
});
