import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import {
  FIXTURE_BUILD_DIRECTORY,
  TEST_VARS,
  UNLIMITED_FOR_TESTS,
} from "../../src/testing/build-under-test.ts";

/**
 * Shared pages against the fixture app, behind the local server's Workers Cache (packages/edge-platform/docs/caching.md):
 * /slow/cached opts in through its loader's headers (and the route's `headers` export passing them on), /slow
 * does not; /slow/purge purges it by tag or by path.
 */

let app: ServedBuild;
let withoutDatabase: string;
const logs: string[] = [];

/**
 * The fixture's build as a product without a database deploys it: the same files, linked, and its deploy config
 * without the D1 binding the fixture declares (for its dev server's migrations). Purging needs no store of its own:
 * with no database there, a purge that came to depend on one would fail these tests.
 */
async function fixtureWithoutDatabase(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "fixture-without-database-"));
  await symlink(join(FIXTURE_BUILD_DIRECTORY, "client"), join(directory, "client"), "dir");
  await mkdir(join(directory, "server"));
  for (const entry of await readdir(join(FIXTURE_BUILD_DIRECTORY, "server")))
    if (entry !== "wrangler.json")
      await symlink(join(FIXTURE_BUILD_DIRECTORY, "server", entry), join(directory, "server", entry));
  const config = JSON.parse(await readFile(join(FIXTURE_BUILD_DIRECTORY, "server/wrangler.json"), "utf8"));
  expect(config.d1_databases).toHaveLength(1);
  delete config.d1_databases;
  await writeFile(join(directory, "server/wrangler.json"), JSON.stringify(config));
  return directory;
}

beforeAll(async () => {
  withoutDatabase = await fixtureWithoutDatabase();
  app = await serveBuild({
    buildDirectory: withoutDatabase,
    vars: TEST_VARS,
    onLog: (log) => logs.push(log.message),
    // Far more purges than one visitor's share (purge-share.test.ts tests that).
    rateLimits: UNLIMITED_FOR_TESTS,
  });
});

afterAll(async () => {
  await app?.close();
  if (withoutDatabase) await rm(withoutDatabase, { recursive: true, force: true });
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, app.url), { redirect: "manual", headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function renderedAt(body: string): string | undefined {
  return /<time dateTime="([^"]+)"/.exec(body)?.[1];
}

/** Purges /slow/cached through the fixture's action, as a product's write does; answers its redirect. */
async function purge(by: "tag" | "path") {
  const response = await fetch(new URL("/slow/purge", app.url), {
    method: "POST",
    headers: { origin: app.url.origin, "content-type": "application/x-www-form-urlencoded" },
    body: `by=${by}`,
    redirect: "manual",
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

/** A fresh copy: purged first, then stored by one request. */
async function freshlyStored(path = "/slow/cached") {
  await purge("tag");
  const miss = await get(path);
  expect(miss.headers.get("cf-cache-status")).toBe("MISS");
  return miss;
}

describe("a route that opts in", () => {
  test("but sets a cookie: not stored, and the browser is not told a shared cache may keep it", async () => {
    for (const path of ["/slow/cached?set-cookie=1", "/slow/cached?set-cookie=1"]) {
      const answer = await get(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("set-cookie")).toContain("seen=1");
      expect(answer.headers.get("cf-cache-status")).not.toBe("HIT");
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
      expect(answer.headers.has("cache-tag")).toBe(false);
    }
  });

  test("is a hit on repeat, the same page; one that does not is rendered every time", async () => {
    const first = await freshlyStored();
    const second = await get("/slow/cached");
    expect(second.headers.get("cf-cache-status")).toBe("HIT");
    expect(renderedAt(second.body)).toBe(renderedAt(first.body));
    const [a, b] = [await get("/slow"), await get("/slow")];
    expect(a.headers.get("cf-cache-status")).not.toBe("HIT");
    expect(renderedAt(a.body)).not.toBe(renderedAt(b.body));
  });

  test("its copy has no nonce, a hashed policy, the browser's per-request caching and none of the edge's headers", async () => {
    await freshlyStored();
    const hit = await get("/slow/cached");
    expect(hit.headers.get("cf-cache-status")).toBe("HIT");
    expect(hit.body).not.toContain("nonce=");
    expect(hit.headers.get("content-security-policy")).toMatch(/'sha256-/);
    expect(hit.headers.get("content-security-policy")).not.toContain("'nonce-");
    expect(hit.headers.get("cache-control")).toBe("private, no-store");
    expect(hit.headers.has("cache-tag")).toBe(false);
    expect(hit.headers.has("cloudflare-cdn-cache-control")).toBe(false);
  });

  test("50 concurrent requests after a purge render it once", async () => {
    await purge("tag");
    const answers = await Promise.all(Array.from({ length: 50 }, () => get("/slow/cached")));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => renderedAt(answer.body))).size).toBe(1);
  });

  test("its page data is shared the same way, and purged with the page", async () => {
    await purge("tag");
    expect((await get("/slow/cached.data")).headers.get("cf-cache-status")).toBe("MISS");
    expect((await get("/slow/cached.data")).headers.get("cf-cache-status")).toBe("HIT");
    await purge("path");
    expect((await get("/slow/cached.data")).headers.get("cf-cache-status")).toBe("MISS");
  });

  test("a visitor's cookie never reaches the shared copy", async () => {
    await purge("tag");
    const withCookie = await get("/slow/cached", { cookie: "session=someone" });
    expect(withCookie.body).toContain("Rendered from the URL alone.");
    expect((await get("/slow/cached")).body).toContain("Rendered from the URL alone.");
  });

  test("an answer to a request with Authorization is never shared", async () => {
    await purge("tag");
    const answer = await get("/slow/cached", { authorization: "Basic dXNlcjpwYXNz" });
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect((await get("/slow/cached")).headers.get("cf-cache-status")).toBe("MISS");
  });

  test("HEAD is answered from the stored copy, without a body", async () => {
    await freshlyStored();
    const response = await fetch(new URL("/slow/cached", app.url), { method: "HEAD" });
    expect(response.headers.get("cf-cache-status")).toBe("HIT");
    expect(await response.text()).toBe("");
  });
});

describe("purge on write", () => {
  test.each(["tag", "path"] as const)("by %s: the next request renders and stores a new copy", async (by) => {
    const before = await freshlyStored();
    expect((await get("/slow/cached")).headers.get("cf-cache-status")).toBe("HIT");
    const { status, location } = await purge(by);
    expect(status).toBe(303);
    expect(location).toBe("/slow/cached");
    const after = await get("/slow/cached");
    expect(after.headers.get("cf-cache-status")).toBe("MISS");
    expect(renderedAt(after.body)).not.toBe(renderedAt(before.body));
  });

  test("no purge store: the Worker has no database at all, and its pages are shared and purged", async () => {
    const bindings = await app.miniflare.getBindings();
    expect(Object.keys(bindings).filter((name) => name === "DB" || name.includes("D1"))).toEqual([]);
  });
});
