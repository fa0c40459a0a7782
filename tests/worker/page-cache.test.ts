import { Response as MiniflareResponse } from "miniflare";
import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../app/platform/local-server/serve-build.ts";
import { recordPurge } from "../../app/platform/page-cache/purge.server.ts";
import { inlineScripts, scriptHash } from "../../app/platform/static-page-policy.ts";
import { TEST_VARS } from "../support/build-under-test.ts";

/**
 * The edge page cache in workerd: Miniflare's real Cache API and the D1 purge store, through the reference
 * page /messages/latest (docs/decisions/017-edge-page-cache.md). Each test uses its own query string, which
 * is part of the key, so its entries are its own.
 */

let app: ServedBuild;
const logs: string[] = [];

beforeAll(async () => {
  app = await serveBuild({ vars: TEST_VARS, onLog: (log) => logs.push(log.message) });
});

afterAll(async () => {
  await app?.close();
});

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(new URL(path, app.url), { headers, redirect: "manual" });
}

async function submissionId(): Promise<string> {
  const html = await (await get("/messages")).text();
  const id = html.match(/name="submissionId" value="([^"]+)"/)?.[1];
  if (!id) throw new Error("no submission id in the form");
  return id;
}

function post(fields: Record<string, string>) {
  return fetch(new URL("/messages", app.url), {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: app.url.origin },
    redirect: "manual",
  });
}

/** The key the cache names in `Cache-Status` (RFC 9211 `key`). */
function keyOf(response: Response): string {
  const key = response.headers.get("Cache-Status")?.match(/key="([^"]+)"/)?.[1];
  if (!key) throw new Error(`no key in ${response.headers.get("Cache-Status")}`);
  return key;
}

/** Requests the page until the cache has stored it (the first render is the visitor's, stored in the background). */
async function storedCopy(path: string): Promise<Response> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await get(path);
    if (/; hit|; stored/.test(response.headers.get("Cache-Status") ?? "")) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} was never stored`);
}

/** Makes a stored copy look `seconds` old, as if time had passed. */
async function age(key: string, seconds: number): Promise<void> {
  const cache = (await app.miniflare.getCaches()).default;
  const entry = await cache.match(key);
  if (!entry) throw new Error(`nothing stored under ${key}`);
  const headers = {
    ...Object.fromEntries(entry.headers),
    "x-page-cache-stored-at": `${Date.now() - seconds * 1000}`,
  };
  await cache.put(key, new MiniflareResponse(await entry.text(), { status: entry.status, headers }));
}

function renderedAt(html: string): string | undefined {
  return html.match(/As of <time dateTime="([^"]+)"/)?.[1];
}

describe("a page that opts in through its headers export", () => {
  test("the first request renders and stores it; a repeat is a hit with the same page", async () => {
    const first = await get("/messages/latest?t=hit");
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; detail=storing; key=/);
    await first.text();
    const stored = await storedCopy("/messages/latest?t=hit");
    const storedHtml = await stored.text();
    const repeat = await get("/messages/latest?t=hit");
    expect(repeat.headers.get("Cache-Status")).toMatch(/^edge-page-cache; hit; ttl=\d+; key=/);
    expect(renderedAt(await repeat.text())).toBe(renderedAt(storedHtml));
  });

  test("a copy carries no nonce: its policy allows exactly its own inline scripts by hash", async () => {
    const hit = await storedCopy("/messages/latest?t=policy");
    const html = await hit.text();
    expect(html).not.toContain("nonce=");
    const policy = hit.headers.get("Content-Security-Policy") ?? "";
    expect(policy).not.toContain("'nonce-");
    const scripts = inlineScripts(html);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(policy).toContain(`'sha256-${await scriptHash(script)}'`);
  });

  test("the browser is told not to keep it and sees none of the cache's own headers", async () => {
    const hit = await storedCopy("/messages/latest?t=browser");
    expect(hit.headers.get("Cache-Control")).toBe("private, no-store");
    expect(hit.headers.has("Cache-Tag")).toBe(false);
    expect([...hit.headers.keys()].filter((name) => name.startsWith("x-page-cache"))).toEqual([]);
  });

  test("its page data (.data) is cached the same way", async () => {
    const data = await storedCopy("/messages/latest.data?t=data");
    expect(data.headers.get("Content-Type")).toMatch(/^text\/x-script/);
    const repeat = await get("/messages/latest.data?t=data");
    expect(repeat.headers.get("Cache-Status")).toMatch(/; hit; /);
    expect(await repeat.text()).toBe(await data.text());
  });

  test("the key holds the deployed version, the path and the query with its parameters sorted", async () => {
    const hit = await storedCopy("/messages/latest?b=2&a=1");
    expect(keyOf(hit)).toMatch(/\/__page-cache\/[0-9a-f-]{36}\/messages\/latest\?a=1&b=2$/);
    const reordered = await get("/messages/latest?a=1&b=2");
    expect(reordered.headers.get("Cache-Status")).toMatch(/; hit; /);
  });

  test("HEAD is answered from the stored copy, without a body", async () => {
    await (await storedCopy("/messages/latest?t=head")).text();
    const head = await fetch(new URL("/messages/latest?t=head", app.url), { method: "HEAD" });
    expect(head.headers.get("Cache-Status")).toMatch(/; hit; /);
    expect(await head.text()).toBe("");
  });
});

describe("stale-while-revalidate", () => {
  test("a stale copy is served at once while exactly one background render refreshes it", async () => {
    const path = "/messages/latest?t=swr";
    const stored = await storedCopy(path);
    const before = renderedAt(await stored.text());
    await age(keyOf(stored), 61);
    const refreshes = () => logs.filter((line) => line.includes(`page cache: refreshing ${path}`)).length;
    const refreshesBefore = refreshes();
    // Concurrent requests: those before the refresh has stored get the stale copy, the rest the new one.
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await get(path);
        return { status: response.headers.get("Cache-Status") ?? "", at: renderedAt(await response.text()) };
      }),
    );
    const stale = answers.filter((answer) => /^edge-page-cache; fwd=stale; key=/.test(answer.status));
    expect(stale.length).toBeGreaterThan(0);
    for (const answer of stale) expect(answer.at).toBe(before);
    for (const answer of answers.filter((answer) => !stale.includes(answer))) {
      expect(answer.status).toMatch(/^edge-page-cache; hit; /);
      expect(answer.at).not.toBe(before);
    }
    const fresh = await storedCopy(path);
    expect(renderedAt(await fresh.text())).not.toBe(before);
    expect(refreshes() - refreshesBefore).toBe(1);
  });

  test("a copy older than stale-while-revalidate allows is not served: the page is rendered and stored again", async () => {
    const path = "/messages/latest?t=expired";
    const stored = await storedCopy(path);
    await age(keyOf(stored), 60 + 600 + 1);
    const response = await get(path);
    expect(response.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; stored; key=/);
  });
});

describe("purge on write", () => {
  test("posting a message purges the tag: the next visitor's page and data show it at once", async () => {
    await (await storedCopy("/messages/latest?t=tag")).text();
    await (await storedCopy("/messages/latest.data?t=tag")).text();
    const posted = await post({ submissionId: await submissionId(), name: "Tag", text: "purged by tag" });
    expect(posted.status).toBe(303);
    const page = await get("/messages/latest?t=tag");
    expect(page.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; stored; /);
    expect(await page.text()).toContain("purged by tag");
    const data = await get("/messages/latest.data?t=tag");
    expect(data.headers.get("Cache-Status")).toMatch(/; stored; /);
    expect(await data.text()).toContain("purged by tag");
  });

  test("the poster gets a marker cookie and, sending it back, sees their message", async () => {
    await (await storedCopy("/messages/latest?t=writer")).text();
    const posted = await post({ submissionId: await submissionId(), name: "Writer", text: "my own write" });
    const cookies = posted.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
    expect(cookies.some((cookie) => cookie?.startsWith("page-cache-purged="))).toBe(true);
    const page = await get("/messages/latest?t=writer", { Cookie: cookies.join("; ") });
    expect(page.headers.get("Cache-Status")).toMatch(/fwd=miss/);
    expect(await page.text()).toContain("my own write");
  });

  test("the writer's marker alone keeps them from a copy older than their write (another isolate's view)", async () => {
    const path = "/messages/latest?t=marker";
    await (await storedCopy(path)).text();
    // A write this isolate was not told about, as when the purge went through another data center.
    const db = await app.miniflare.getD1Database("DB");
    await db
      .prepare(
        "INSERT INTO messages (submission_id, name, text) VALUES (?, 'Elsewhere', 'written elsewhere')",
      )
      .bind(crypto.randomUUID())
      .run();
    const marker = (await createCookie("page-cache-purged").serialize(Date.now())).split(";")[0] ?? "";
    const writer = await get(path, { Cookie: marker });
    expect(writer.headers.get("Cache-Status")).toMatch(/fwd=miss/);
    expect(await writer.text()).toContain("written elsewhere");
    const other = await get(path);
    expect(other.headers.get("Cache-Status")).toMatch(/; hit; /);
    expect(await other.text()).not.toContain("written elsewhere");
  });

  test("a purge by path from any isolate reaches this one within the purge check's second", async () => {
    const path = "/messages/latest?t=path";
    const before = renderedAt(await (await storedCopy(path)).text());
    await recordPurge(await app.miniflare.getD1Database("DB"), { paths: ["/messages/latest"] }, Date.now());
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const page = await get(path);
    expect(page.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; stored; /);
    expect(renderedAt(await page.text())).not.toBe(before);
  });
});

describe("never stored", () => {
  test("a page that does not opt in is rendered every time", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const page = await get("/messages");
      expect(page.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; key=/);
      expect(page.headers.get("Cache-Control")).toBe("private, no-store");
      expect(await page.text()).toMatch(/nonce="/);
    }
  });

  test("a request with Authorization is never looked up nor stored", async () => {
    await (await storedCopy("/messages/latest?t=auth")).text();
    for (let attempt = 0; attempt < 2; attempt++) {
      const page = await get("/messages/latest?t=auth", { Authorization: "Bearer x" });
      expect(page.headers.get("Cache-Status")).toBe("edge-page-cache; fwd=bypass");
      expect(page.headers.get("Cache-Control")).toBe("private, no-store");
      expect(await page.text()).toMatch(/nonce="/);
    }
  });

  test("a POST is not the cache's business", async () => {
    const response = await post({ submissionId: "not-an-id", name: "x", text: "y" });
    expect(response.status).toBe(400);
    expect(response.headers.has("Cache-Status")).toBe(false);
  });

  test("an error is not stored", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const missing = await get("/messages/latest/none");
      expect(missing.status).toBe(404);
      expect(missing.headers.get("Cache-Status")).toMatch(/fwd=miss; key=/);
      await missing.body?.cancel();
    }
  });

  test("a visitor's cookies and unkeyed headers never reach the stored copy", async () => {
    const path = "/messages/latest?t=visitor";
    const visitor = await get(path, { Cookie: "d1-bookmark=x; other=1", "X-Forwarded-Host": "evil.example" });
    expect(visitor.headers.get("Cache-Status")).toMatch(/detail=storing/);
    // The visitor's own render carries their nonce; the copy the cache stores is its own, without one.
    expect(await visitor.text()).toMatch(/nonce="/);
    const copy = await storedCopy(path);
    const html = await copy.text();
    expect(html).not.toContain("evil.example");
    expect(html).not.toContain("nonce=");
  });
});

// Last in the file: it breaks the purge store for the rest of this server's life.
describe("when the purge store fails", () => {
  test("a post is still stored and redirected, and no copy is served unchecked", async () => {
    const path = "/messages/latest?t=store-down";
    await (await storedCopy(path)).text();
    const db = await app.miniflare.getD1Database("DB");
    await db.prepare("DROP TABLE page_cache_purges").run();
    const posted = await post({ submissionId: await submissionId(), name: "Down", text: "store is down" });
    expect(posted.status).toBe(303);
    // Past the purge check's second, the copy's check fails: the page is rendered instead.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const page = await get(path);
    expect(page.headers.get("Cache-Status")).toMatch(/fwd=miss/);
    expect(await page.text()).toContain("store is down");
  });
});

describe("pages no route declared shareable", () => {
  test("are never read from the cache, even with a valid copy under their key (no cache read per request)", async () => {
    // A real stored copy (of the reference page), planted under the key of /now, a page rendered per request.
    const shared = await storedCopy("/messages/latest?case=planted");
    await shared.body?.cancel();
    const cache = (await app.miniflare.getCaches()).default;
    const copy = await cache.match(keyOf(shared));
    if (!copy) throw new Error("no stored copy to plant");
    const nowKey = keyOf(await get("/now?case=planted"));
    await cache.put(nowKey, new MiniflareResponse(await copy.text(), copy));

    const response = await get("/now?case=planted");
    expect(response.headers.get("Cache-Status")).toMatch(/^edge-page-cache; fwd=miss; key=/);
    expect(await response.text()).toContain("<h1>Now</h1>");
  });
});
