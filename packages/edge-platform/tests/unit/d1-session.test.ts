import { createCookie } from "react-router";
import { describe, expect, test } from "vitest";
import { bookmarkSetCookie, isD1Bookmark, readBookmarkCookie } from "../../src/d1-session.server";

// The visitor's D1 bookmark cookie. The served behaviour is in tests/worker/reference/d1-sessions.test.ts.

const LOCAL = "00000000-00000001-00000000-00000000000000000000000000000000";
const DOCUMENTED = "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683";

function request(cookie?: string, url = "http://127.0.0.1/messages"): Request {
  return new Request(url, { headers: cookie === undefined ? {} : { Cookie: cookie } });
}

async function encoded(value: unknown): Promise<string> {
  return (await createCookie("d1-bookmark").serialize(value)).split(";")[0] ?? "";
}

describe("isD1Bookmark", () => {
  test.each([
    ["Miniflare's", LOCAL],
    ["the shape D1's docs show", DOCUMENTED],
    ["wider counters", "0000000000000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683"],
  ])("accepts %s", (_, value) => {
    expect(isD1Bookmark(value)).toBe(true);
  });

  test.each([
    ["empty", ""],
    ["a word", "zzzz"],
    ["a constraint", "first-unconstrained"],
    ["one field", "00000085"],
    ["upper case", DOCUMENTED.toUpperCase()],
    ["surrounding space", ` ${LOCAL}`],
    ["a trailing newline", `${LOCAL}\n`],
    ["an empty field", "00000085--00004c6d"],
    ["over 128 characters", `0-${"f".repeat(127)}`],
    ["not a string", 85],
    ["null", null],
  ])("refuses %s", (_, value) => {
    expect(isD1Bookmark(value)).toBe(false);
  });
});

describe("readBookmarkCookie", () => {
  test("no Cookie header, or no bookmark cookie: nothing sent", async () => {
    expect(await readBookmarkCookie(request())).toEqual({ sent: false, bookmark: null });
    expect(await readBookmarkCookie(request("theme=dark"))).toEqual({ sent: false, bookmark: null });
  });

  test("a valid bookmark among other cookies", async () => {
    const cookie = `theme=dark; ${await encoded(LOCAL)}; lang=en`;
    expect(await readBookmarkCookie(request(cookie))).toEqual({ sent: true, bookmark: LOCAL });
  });

  test.each([
    ["empty", "d1-bookmark="],
    ["not base64", "d1-bookmark=%%%"],
    ["the raw bookmark, not encoded", `d1-bookmark=${LOCAL}`],
    ["64 KB", `d1-bookmark=${"A".repeat(65_536)}`],
  ])("sent but unreadable (%s): no bookmark", async (_, cookie) => {
    expect(await readBookmarkCookie(request(cookie))).toEqual({ sent: true, bookmark: null });
  });

  test.each([["zzzz"], [42], [{ bookmark: LOCAL }], [[LOCAL]]])(
    "sent, encoded, but %j: no bookmark",
    async (value) => {
      expect(await readBookmarkCookie(request(await encoded(value)))).toEqual({ sent: true, bookmark: null });
    },
  );
});

describe("bookmarkSetCookie", () => {
  test("HttpOnly, SameSite=Lax, Path=/, an hour, no Secure over http; the value reads back", async () => {
    const header = await bookmarkSetCookie(LOCAL, "http://127.0.0.1:8787/messages");
    const attributes = header.split("; ").slice(1);
    expect(attributes.sort()).toEqual(["HttpOnly", "Max-Age=3600", "Path=/", "SameSite=Lax"].sort());
    expect(header.length).toBeLessThan(160);
    expect(await readBookmarkCookie(request(header.split(";")[0]))).toEqual({ sent: true, bookmark: LOCAL });
  });

  test("Secure over https", async () => {
    const header = await bookmarkSetCookie(LOCAL, "https://edge-app.example/messages");
    expect(header.split("; ")).toContain("Secure");
  });
});
