import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { TEST_VARS, UNLIMITED_FOR_TESTS, UNLIMITED_PURGES } from "edge-platform/testing";
import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedMessageCount } from "../../support/reference/messages-db.ts";

// Read-your-writes with D1's Sessions API. The visitor's D1 bookmark travels in a cookie; the
// page's reads start from it, so once read replication is on a visitor always sees their own message.
// Locally D1 has one instance (no replicas): what these tests observe is the bookmark handed from the write
// to the reads, which is what D1 needs to route those reads to a replica that has the write.

let app: ServedBuild;

beforeAll(async () => {
  // edge-app.example stands for the production host in the https test (the host guard refuses names it is not told about).
  // Many posts in a few seconds: this suite is about sessions, not the limit (write-limits.test.ts).
  app = await serveBuild({
    vars: TEST_VARS,
    onLog: () => {},
    allowedHosts: ["edge-app.example"],
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: UNLIMITED_PURGES,
  });
});

afterAll(async () => {
  await app?.close();
});

const COOKIE_NAME = "d1-bookmark";
/** The shape Miniflare's D1 gives bookmarks (and D1's docs show): four hex fields, 8-8-8-32. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
/** The same cookie codec the app uses (React Router's createCookie), to read and forge values. */
const bookmarkCookie = createCookie(COOKIE_NAME);

async function submissionId(cookie?: string): Promise<string> {
  const html = await (await getMessages(cookie)).text();
  const id = html.match(/name="submissionId" value="([^"]+)"/)?.[1];
  if (!id) throw new Error("no submission id in the form");
  return id;
}

function getMessages(cookie?: string, path = "/messages") {
  return fetch(new URL(path, app.url), { headers: cookie ? { Cookie: cookie } : {} });
}

function post(
  fields: Record<string, string>,
  { cookie, path = "/messages" }: { cookie?: string; path?: string } = {},
) {
  return fetch(new URL(path, app.url), {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: app.url.origin, ...(cookie ? { Cookie: cookie } : {}) },
    redirect: "manual",
  });
}

/** The bookmark Set-Cookie carries, with the cookie's attributes; null without one. */
async function setBookmark(response: Response) {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${COOKIE_NAME}=`));
  if (!header) return null;
  const pair = header.split(";")[0] ?? "";
  return {
    header,
    pair,
    attributes: header
      .split(";")
      .slice(1)
      .map((attribute) => attribute.trim().toLowerCase()),
    bookmark: await bookmarkCookie.parse(pair),
  };
}

async function forged(value: unknown): Promise<string> {
  return (await bookmarkCookie.serialize(value)).split(";")[0] ?? "";
}

function unique(label: string): string {
  return `${label} ${crypto.randomUUID().slice(0, 8)}`;
}

describe("the bookmark round trip", () => {
  test("a post answers its 303 with the write's bookmark in a short, HttpOnly, SameSite=Lax cookie", async () => {
    const response = await post({
      submissionId: await submissionId(),
      name: "Ada",
      text: unique("bookmarked"),
    });
    expect(response.status).toBe(303);
    const cookie = await setBookmark(response);
    expect(cookie?.bookmark).toMatch(BOOKMARK);
    expect(cookie?.attributes).toEqual(
      expect.arrayContaining(["path=/", "httponly", "samesite=lax", "max-age=3600"]),
    );
    // Served over http here: Secure would make the browser drop it.
    expect(cookie?.attributes).not.toContain("secure");
    expect(cookie?.header.length).toBeLessThan(200);
  });

  test("the GET with that cookie lists the message and keeps or advances the bookmark, never older", async () => {
    const text = unique("read your writes");
    const posted = await setBookmark(await post({ submissionId: await submissionId(), name: "Bo", text }));
    expect(posted?.bookmark).toMatch(BOOKMARK);
    const page = await getMessages(posted?.pair);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<p dir="auto">${text}</p>`);
    const next = await setBookmark(page);
    // Locally every query advances the bookmark, so the page hands the newer one back.
    expect(next?.bookmark).toMatch(BOOKMARK);
    expect(String(next?.bookmark) > String(posted?.bookmark)).toBe(true);
  });

  test("the client-side (.data) post and reads carry the bookmark the same way", async () => {
    const text = unique("via data");
    const response = await post(
      { submissionId: await submissionId(), name: "Cy", text },
      { path: "/messages.data" },
    );
    expect(response.status).toBe(202);
    const posted = await setBookmark(response);
    expect(posted?.bookmark).toMatch(BOOKMARK);
    const data = await getMessages(posted?.pair, "/messages.data");
    expect(data.status).toBe(200);
    expect(await data.text()).toContain(text);
    expect((await setBookmark(data))?.bookmark).toMatch(BOOKMARK);
  });

  test("the page reads from the visitor's bookmark: one ahead of the database is kept, not replaced", async () => {
    // D1 keeps the newest bookmark a session has seen. Read from this one, the session still holds it after
    // the query, so there is nothing new to hand back; a read that ignored it would hand back an older one.
    const ahead = "00000000-7fffffff-00000000-00000000000000000000000000000000";
    const response = await getMessages(await forged(ahead));
    expect(response.status).toBe(200);
    expect(await setBookmark(response)).toBeNull();
  });

  test("each post stays visible to its author right after the redirect, 20 times in a row", async () => {
    let cookie: string | undefined;
    for (let round = 0; round < 20; round += 1) {
      const text = unique(`round ${round}`);
      const response = await post({ submissionId: await submissionId(cookie), name: "Di", text }, { cookie });
      expect(response.status).toBe(303);
      cookie = (await setBookmark(response))?.pair;
      expect(cookie).toBeDefined();
      const page = await getMessages(cookie);
      expect(await page.text()).toContain(`<p dir="auto">${text}</p>`);
      cookie = (await setBookmark(page))?.pair ?? cookie;
    }
  });

  test("a visitor who only reads gets no cookie", async () => {
    const response = await getMessages();
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  test("answers that wrote nothing (400, 409) set no cookie", async () => {
    const invalid = await post({ submissionId: await submissionId(), name: " ", text: "no name" });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.getSetCookie()).toEqual([]);
    const id = await submissionId();
    expect((await post({ submissionId: id, name: "Ed", text: unique("first") })).status).toBe(303);
    const taken = await post({ submissionId: id, name: "Ed", text: unique("second") });
    expect(taken.status).toBe(409);
    expect(taken.headers.getSetCookie()).toEqual([]);
  });

  test("over https the cookie is Secure", async () => {
    const origin = "https://edge-app.example";
    const html = await (await app.miniflare.dispatchFetch(`${origin}/messages`)).text();
    const id = html.match(/name="submissionId" value="([^"]+)"/)?.[1] ?? "";
    const response = await app.miniflare.dispatchFetch(`${origin}/messages`, {
      method: "POST",
      body: new URLSearchParams({ submissionId: id, name: "Fay", text: unique("secure") }).toString(),
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${COOKIE_NAME}=`));
    expect(header?.toLowerCase()).toContain("; secure");
  });
});

describe("a bad bookmark cookie never breaks the page: the reads start unconstrained", () => {
  test.each([
    ["not our encoding", "d1-bookmark=garbage"],
    ["empty", "d1-bookmark="],
    ["percent garbage", "d1-bookmark=%E0%A4%A"],
    ["4 KB", `d1-bookmark=${"x".repeat(4096)}`],
    ["a raw, unencoded bookmark", "d1-bookmark=00000000-00000001-00000000-00000000000000000000000000000000"],
  ])("%s", async (_, cookie) => {
    const before = await storedMessageCount(app);
    const response = await getMessages(cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('aria-labelledby="latest-messages"');
    expect(html).not.toContain("could not be loaded");
    // The bad value is replaced by a real bookmark.
    expect((await setBookmark(response))?.bookmark).toMatch(BOOKMARK);
    // And a post with it stores once.
    const posted = await post(
      { submissionId: await submissionId(cookie), name: "Gus", text: unique("bad") },
      { cookie },
    );
    expect(posted.status).toBe(303);
    expect((await setBookmark(posted))?.bookmark).toMatch(BOOKMARK);
    expect(await storedMessageCount(app)).toBe(before + 1);
  });

  test.each([
    ["a word that sorts after every bookmark", "zzzz"],
    ["a number", 42],
    ["an object", { bookmark: "00000000-00000001-00000000-00000000000000000000000000000000" }],
    ["a constraint instead of a bookmark", "first-primary"],
    ["a bookmark with a trailing newline", "00000000-00000001-00000000-00000000000000000000000000000000\n"],
    ["a 1,000-character hex string", `0-${"f".repeat(998)}`],
  ])("well encoded, but %s", async (_, value) => {
    const response = await getMessages(await forged(value));
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("could not be loaded");
    // A value D1 would have kept (it keeps the greater of two) is never handed back.
    expect((await setBookmark(response))?.bookmark).toMatch(BOOKMARK);
  });

  test("two bookmark cookies, the first one garbage: the page works and gets a real bookmark", async () => {
    const ahead = "00000000-7fffffff-00000000-00000000000000000000000000000000";
    const response = await getMessages(`d1-bookmark=garbage; ${await forged(ahead)}`);
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("could not be loaded");
    expect((await setBookmark(response))?.bookmark).toMatch(BOOKMARK);
  });
});
