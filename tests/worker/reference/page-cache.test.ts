import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { TEST_VARS, UNLIMITED_FOR_TESTS, UNLIMITED_PURGES } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedMessageCount } from "../../support/reference/messages-db.ts";

/**
 * The reference shared page, /messages/latest, behind the local server's Workers Cache (packages/edge-platform/docs/caching.md):
 * posting a message purges it. What the platform does for any shared page is tested on the fixture
 * (packages/edge-platform/tests/platform/page-cache.test.ts).
 */

let app: ServedBuild;
let refusing: ServedBuild;
const logs: string[] = [];

beforeAll(async () => {
  app = await serveBuild({
    vars: TEST_VARS,
    onLog: () => {},
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: UNLIMITED_PURGES,
  });
  // Cloudflare refuses purges beyond its rate: this one refuses every purge.
  refusing = await serveBuild({
    vars: TEST_VARS,
    onLog: (log) => logs.push(log.message),
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: { purgeLimit: { requestsPerMinute: 0, burst: 0 } },
  });
});

afterAll(async () => {
  await app?.close();
  await refusing?.close();
});

async function get(served: ServedBuild, path: string) {
  const response = await fetch(new URL(path, served.url), { redirect: "manual" });
  return {
    status: response.status,
    cache: response.headers.get("cf-cache-status"),
    body: await response.text(),
  };
}

async function post(served: ServedBuild, text: string) {
  const form = await get(served, "/messages");
  const submissionId = /name="submissionId" value="([^"]+)"/.exec(form.body)?.[1] ?? "";
  const response = await fetch(new URL("/messages", served.url), {
    method: "POST",
    body: new URLSearchParams({ name: "Poster", text, submissionId }),
    headers: { Origin: served.url.origin },
    redirect: "manual",
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

function unique(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 10)}`;
}

describe("/messages/latest", () => {
  test("is shared: a hit on repeat, page and data", async () => {
    for (const path of ["/messages/latest", "/messages/latest.data"]) {
      await get(app, path);
      expect((await get(app, path)).cache).toBe("HIT");
    }
  });

  test("a Japanese visitor, then an Arabic one, each get their language's copy; the next Japanese visitor a hit", async () => {
    // A query of its own: this test's copies, whatever other tests stored.
    const path = `/messages/latest?languages=${Math.random().toString(36).slice(2)}`;
    const visit = async (language: string) => {
      const response = await fetch(new URL(path, app.url), { headers: { "Accept-Language": language } });
      const html = /<html\b[^>]*>/.exec(await response.text())?.[0] ?? "";
      return {
        cache: response.headers.get("cf-cache-status"),
        language: response.headers.get("Content-Language"),
        html,
      };
    };
    const japanese = await visit("ja-JP,ja;q=0.9");
    expect(japanese).toMatchObject({ cache: "MISS", language: "ja" });
    expect(japanese.html).toMatch(/lang="ja" dir="ltr"/);
    const arabic = await visit("ar-EG,ar;q=0.9");
    expect(arabic).toMatchObject({ cache: "MISS", language: "ar" });
    expect(arabic.html).toMatch(/lang="ar" dir="rtl"/);
    expect(await visit("ja")).toMatchObject({ cache: "HIT", language: "ja" });
  });

  test("posting a message purges it: the next visitor's page and data show it", async () => {
    await get(app, "/messages/latest");
    await get(app, "/messages/latest.data");
    const text = unique("purged on post");
    expect(await post(app, text)).toEqual({ status: 303, location: "/messages" });
    const page = await get(app, "/messages/latest");
    expect(page.cache).toBe("MISS");
    expect(page.body).toContain(text);
    expect((await get(app, "/messages/latest.data")).body).toContain(text);
  });

  test("when Cloudflare refuses the purge, the message is stored, the failure logged, and the poster sent where no copy answers", async () => {
    await get(refusing, "/messages/latest");
    const before = await storedMessageCount(refusing);
    const text = unique("purge refused");
    const { status, location } = await post(refusing, text);
    expect(status).toBe(303);
    expect(location).toMatch(/^\/messages\?fresh=[0-9a-z]+$/);
    expect(await storedMessageCount(refusing)).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logs.some((line) => line.includes('"event":"page_cache_purge_failed"'))).toBe(true);
    // Other visitors get the copy until it expires; the poster's page is rendered for them.
    expect((await get(refusing, "/messages/latest")).cache).toBe("HIT");
    expect((await get(refusing, location ?? "")).body).toContain(text);
  });

  test("no purge store: the product's migrations leave no table of purges (migrations/0003)", async () => {
    const db = await app.miniflare.getD1Database("DB");
    const table = await db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'page_cache_purges'")
      .first();
    expect(table).toBeNull();
  });

  test("dynamic pages never touch the cache: the gateway answers them", async () => {
    expect((await get(app, "/now")).cache).toBeNull();
    expect((await get(app, "/now")).cache).toBeNull();
  });
});
