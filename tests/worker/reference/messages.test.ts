import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { TEST_VARS, UNLIMITED_FOR_TESTS, UNLIMITED_PURGES } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedMessageCount } from "../../support/reference/messages-db.ts";

let app: ServedBuild;

beforeAll(async () => {
  // Many posts in a few seconds: this suite is about the form, not the limit (write-limits.test.ts).
  app = await serveBuild({
    vars: TEST_VARS,
    onLog: () => {},
    rateLimits: UNLIMITED_FOR_TESTS,
    workersCache: UNLIMITED_PURGES,
  });
});

afterAll(async () => {
  await app?.close();
});

async function submissionId(): Promise<string> {
  const html = await (await fetch(new URL("/messages", app.url))).text();
  const id = html.match(/name="submissionId" value="([^"]+)"/)?.[1];
  if (!id) throw new Error("no submission id in the form");
  return id;
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(new URL(path, app.url), {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: app.url.origin, ...headers },
    redirect: "manual",
  });
}

describe("posting a message (post/redirect/get)", () => {
  test("a valid form stores one row and redirects back to the list, where it shows first", async () => {
    const before = await storedMessageCount(app);
    const response = await postForm("/messages", {
      submissionId: await submissionId(),
      name: " Ada ",
      text: " Hello edge ",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/messages");
    expect(await storedMessageCount(app)).toBe(before + 1);
    const list = await (await fetch(new URL("/messages", app.url))).text();
    expect(list).toMatch(/<strong><bdi>Ada<\/bdi><\/strong>[\s\S]*?<p dir="auto">Hello edge<\/p>/);
  });

  test("a form sent twice with the same submission id stores once", async () => {
    const id = await submissionId();
    const before = await storedMessageCount(app);
    const responses = await Promise.all([
      postForm("/messages", { submissionId: id, name: "Bo", text: "twice" }),
      postForm("/messages", { submissionId: id, name: "Bo", text: "twice" }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([303, 303]);
    expect(await storedMessageCount(app)).toBe(before + 1);
  });

  test("the client-side (.data) action stores and redirects too", async () => {
    const before = await storedMessageCount(app);
    const response = await postForm("/messages.data", {
      submissionId: await submissionId(),
      name: "Cy",
      text: "via data",
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toContain("/messages");
    expect(await storedMessageCount(app)).toBe(before + 1);
  });
});

describe("a submission id used again (never lose a write silently)", () => {
  const ALREADY_USED =
    "This form was already used for a different message, so yours was not posted. Your text is still here: send again to post it.";

  async function storedTexts(id: string): Promise<string[]> {
    const db = await app.miniflare.getD1Database("DB");
    const { results } = await db
      .prepare("SELECT text FROM messages WHERE submission_id = ?")
      .bind(id)
      .all<{ text: string }>();
    return results.map((row) => row.text);
  }

  function formId(html: string): string | undefined {
    return html.match(/name="submissionId" value="([^"]+)"/)?.[1];
  }

  test("the same id with the same content (after trimming) answers 303 again and stores once", async () => {
    const id = await submissionId();
    const before = await storedMessageCount(app);
    const first = await postForm("/messages", { submissionId: id, name: "Jo", text: "same words" });
    const again = await postForm("/messages", { submissionId: id, name: " Jo ", text: "same words\n" });
    expect([first.status, again.status]).toEqual([303, 303]);
    expect(await storedMessageCount(app)).toBe(before + 1);
    expect(await storedTexts(id)).toEqual(["same words"]);
  });

  test("the same id with other content answers 409: message kept, a fresh id, nothing lost on resend", async () => {
    const id = await submissionId();
    const before = await storedMessageCount(app);
    expect((await postForm("/messages", { submissionId: id, name: "Ka", text: "first words" })).status).toBe(
      303,
    );
    const refused = await postForm("/messages", { submissionId: id, name: "Ka", text: "second words" });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain(ALREADY_USED);
    expect(html).toContain('value="Ka"');
    expect(html).toContain(">second words</textarea>");
    const fresh = formId(html);
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(fresh).not.toBe(id);
    expect(await storedMessageCount(app)).toBe(before + 1);
    expect(await storedTexts(id)).toEqual(["first words"]);

    // Sending the kept form again stores the second message: nothing was lost.
    const resent = await postForm("/messages", {
      submissionId: fresh ?? "",
      name: "Ka",
      text: "second words",
    });
    expect(resent.status).toBe(303);
    expect(await storedMessageCount(app)).toBe(before + 2);
    expect(await storedTexts(fresh ?? "")).toEqual(["second words"]);
  });

  test("another name with the same text is other content too", async () => {
    const id = await submissionId();
    expect((await postForm("/messages", { submissionId: id, name: "Lu", text: "shared" })).status).toBe(303);
    const refused = await postForm("/messages", { submissionId: id, name: "Max", text: "shared" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('value="Max"');
  });

  test("the client-side (.data) action answers 409 with the message, the values and a fresh id", async () => {
    const id = await submissionId();
    expect((await postForm("/messages", { submissionId: id, name: "Ned", text: "one" })).status).toBe(303);
    const before = await storedMessageCount(app);
    const refused = await postForm("/messages.data", { submissionId: id, name: "Ned", text: "two" });
    expect(refused.status).toBe(409);
    const body = await refused.text();
    expect(body).toContain(ALREADY_USED);
    expect(body).toContain("two");
    const ids = body.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
    expect(ids.filter((candidate) => candidate !== id)).toHaveLength(1);
    expect(await storedMessageCount(app)).toBe(before);
  });

  test("two concurrent posts with one id and different content: exactly one stored, the other 409", async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = await submissionId();
      const before = await storedMessageCount(app);
      const texts = [`race ${round} a`, `race ${round} b`];
      const responses = await Promise.all(
        texts.map((text) => postForm("/messages", { submissionId: id, name: "Ola", text })),
      );
      const statuses = responses.map((response) => response.status);
      expect([...statuses].sort()).toEqual([303, 409]);
      expect(await storedMessageCount(app)).toBe(before + 1);
      // The stored one is the one that got the 303; the refused one is in its 409 form, to send again.
      expect(await storedTexts(id)).toEqual([texts[statuses.indexOf(303)]]);
      expect(await responses[statuses.indexOf(409)]?.text()).toContain(
        `>${texts[statuses.indexOf(409)]}</textarea>`,
      );
    }
  });

  test("a database failure keeps the posted id in the form: resending after a lost answer stores once", async () => {
    const db = await app.miniflare.getD1Database("DB");
    const id = await submissionId();
    const before = await storedMessageCount(app);
    await db.exec("ALTER TABLE messages RENAME TO messages_away");
    let html: string;
    try {
      const response = await postForm("/messages", { submissionId: id, name: "Pia", text: "kept id" });
      expect(response.status).toBe(503);
      html = await response.text();
    } finally {
      await db.exec("ALTER TABLE messages_away RENAME TO messages");
    }
    // A failure can hide a write that did commit; the same id makes the resend harmless.
    expect(formId(html)).toBe(id);
    expect((await postForm("/messages", { submissionId: id, name: "Pia", text: "kept id" })).status).toBe(
      303,
    );
    expect((await postForm("/messages", { submissionId: id, name: "Pia", text: "kept id" })).status).toBe(
      303,
    );
    expect(await storedMessageCount(app)).toBe(before + 1);
  });
});

describe("validation: 400 with a message per field and the typed values kept", () => {
  test.each([
    ["an empty name", { name: "  ", text: "hi" }, "Enter your name."],
    [
      "a name over 50 characters",
      { name: "n".repeat(51), text: "hi" },
      "Use at most 50 characters (51 now).",
    ],
    ["an empty message", { name: "Di", text: "\n \t" }, "Write a message."],
    [
      "a message over 500 characters",
      { name: "Di", text: "é".repeat(501) },
      "Use at most 500 characters (501 now).",
    ],
    // Found by tests/worker/reference/fuzz.test.ts: SQLite's length() stops at a NUL, so the CHECK refused it (503).
    ["a message starting with a NUL", { name: "Di", text: "\u0000hello" }, "Remove the control characters."],
    ["a name with a line break", { name: "D\ni", text: "hello" }, "Remove the control characters."],
    // Found by probing (packages/edge-platform/docs/decisions/019-probe-findings.md): these were stored and showed blank, or
    // reversed the text after them.
    [
      "a name of Hangul fillers only",
      { name: "\u3164\u3164", text: "hello" },
      "The name only has characters that do not show. Use letters, digits or symbols.",
    ],
    [
      "a message of zero-width spaces only",
      { name: "Di", text: "\u200B\u200B\u200B" },
      "The message only has characters that do not show. Use letters, digits or symbols.",
    ],
    [
      "a name ending in a right-to-left override",
      { name: "Eve\u202E", text: "hello" },
      "Remove the characters that change the direction of the text.",
    ],
    [
      "a message with a left-to-right isolate",
      { name: "Di", text: "see \u2066this" },
      "Remove the characters that change the direction of the text.",
    ],
  ])("%s", async (_, fields, message) => {
    const before = await storedMessageCount(app);
    const response = await postForm("/messages", { submissionId: await submissionId(), ...fields });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain(fields.name.trim() === "" ? 'name="name"' : `value="${fields.name}"`);
    if (fields.text.trim() !== "") expect(html).toContain(`>${fields.text}</textarea>`);
    expect(await storedMessageCount(app)).toBe(before);
  });

  test("a stored message shows its name and text isolated from the page's text (<bdi>, dir=auto)", async () => {
    const response = await postForm("/messages", {
      submissionId: await submissionId(),
      name: "\u05E9\u05E8\u05D4\u200F",
      text: "\u0645\u0631\u062D\u0628\u0627 world",
    });
    expect(response.status).toBe(303);
    const list = await (await fetch(new URL("/messages", app.url))).text();
    expect(list).toContain("<strong><bdi>\u05E9\u05E8\u05D4\u200F</bdi></strong>");
    expect(list).toContain('<p dir="auto">\u0645\u0631\u062D\u0628\u0627 world</p>');
    expect(list).toMatch(/<input id="message-name"[^>]* dir="auto"/);
    expect(list).toMatch(/<textarea id="message-text"[^>]* dir="auto"/);
  });

  test("exactly 50 and 500 characters (counted as characters, not bytes) are accepted", async () => {
    const response = await postForm("/messages", {
      submissionId: await submissionId(),
      name: "ñ".repeat(50),
      text: "😀".repeat(500),
    });
    expect(response.status).toBe(303);
  });

  test("a missing submission id is refused with a message, nothing stored", async () => {
    const before = await storedMessageCount(app);
    const response = await postForm("/messages", { name: "Ed", text: "no id" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This form is out of date");
    expect(await storedMessageCount(app)).toBe(before);
  });
});

describe("bad input is a clear 4xx, never a 500", () => {
  test("a body over 16 KiB answers 413", async () => {
    const response = await postForm("/messages", {
      submissionId: await submissionId(),
      name: "F",
      text: "x".repeat(20_000),
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("Payload Too Large");
  });

  test("JSON instead of a form answers 415", async () => {
    const response = await fetch(new URL("/messages", app.url), {
      method: "POST",
      body: JSON.stringify({ name: "G", text: "json" }),
      headers: { "Content-Type": "application/json", Origin: app.url.origin },
    });
    expect(response.status).toBe(415);
    expect(await response.text()).toContain("Unsupported Media Type");
  });

  test("a truncated multipart body answers 400", async () => {
    const response = await fetch(new URL("/messages", app.url), {
      method: "POST",
      body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nHal',
      headers: { "Content-Type": "multipart/form-data; boundary=b", Origin: app.url.origin },
    });
    expect(response.status).toBe(400);
  });
});

describe("a database failure", () => {
  test("on write: 503 with a message and a digest, the typed values kept, nothing written", async () => {
    const db = await app.miniflare.getD1Database("DB");
    const id = await submissionId();
    const before = await storedMessageCount(app);
    await db.exec(
      "CREATE TRIGGER refuse_writes BEFORE INSERT ON messages BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    );
    try {
      const response = await postForm("/messages", { submissionId: id, name: "Ivy", text: "kept" });
      expect(response.status).toBe(503);
      const html = await response.text();
      expect(html).toMatch(
        /Your message could not be saved\. Please try again in a moment\. Digest: [0-9a-z]{13}/,
      );
      expect(html).toContain('value="Ivy"');
      expect(html).toContain(">kept</textarea>");
    } finally {
      await db.exec("DROP TRIGGER refuse_writes");
    }
    expect(await storedMessageCount(app)).toBe(before);
  });

  test("on read: the page still offers the form, with a digest for the missing list", async () => {
    const db = await app.miniflare.getD1Database("DB");
    await db.exec("ALTER TABLE messages RENAME TO messages_away");
    try {
      const response = await fetch(new URL("/messages", app.url));
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/The latest messages could not be loaded\. Digest: [0-9a-z]{13}/);
      expect(html).toContain('name="submissionId"');
    } finally {
      await db.exec("ALTER TABLE messages_away RENAME TO messages");
    }
  });
});

describe("packages/edge-platform/docs/contract.md C6: same-origin actions only, refused before any action code runs", () => {
  test.each([
    ["a cross-origin document post", "/messages", { Origin: "https://evil.example" }],
    ["a cross-origin data post", "/messages.data", { Origin: "https://evil.example" }],
    ["Origin: null", "/messages", { Origin: "null" }],
    [
      "Sec-Fetch-Site: cross-site without Origin",
      "/messages",
      { Origin: "", "Sec-Fetch-Site": "cross-site" },
    ],
    ["Sec-Fetch-Site: same-site without Origin", "/messages", { Origin: "", "Sec-Fetch-Site": "same-site" }],
    ["a look-alike origin", "/messages", { Origin: "http://127.0.0.1.evil.example" }],
  ])("%s answers 403 and stores nothing", async (_, path, headers) => {
    const before = await storedMessageCount(app);
    const clean = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ""));
    const response = await fetch(new URL(path, app.url), {
      method: "POST",
      body: new URLSearchParams({ submissionId: await submissionId(), name: "Mallory", text: "forged" }),
      headers: clean,
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("Forbidden: this request comes from another site.");
    expect(await storedMessageCount(app)).toBe(before);
  });

  test.each([
    ["the same origin", { Origin: "SELF" }],
    ["Sec-Fetch-Site: same-origin without Origin", { "Sec-Fetch-Site": "same-origin" }],
    ["a non-browser client (neither header)", {}],
  ])("%s is allowed", async (_, headers) => {
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, value === "SELF" ? app.url.origin : value]),
    );
    const response = await fetch(new URL("/messages", app.url), {
      method: "POST",
      body: new URLSearchParams({ submissionId: await submissionId(), name: "Ok", text: "allowed" }),
      headers: resolved,
      redirect: "manual",
    });
    expect(response.status).toBe(303);
  });

  test("the /monitoring tunnel is behind the same gate: refused 403, reporting off or on", async () => {
    const response = await fetch(new URL("/monitoring", app.url), {
      method: "POST",
      body: "{}",
      headers: { Origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
    // Same-site, the tunnel's own rules apply: it does not exist with reporting off.
    const own = await fetch(new URL("/monitoring", app.url), { method: "POST", body: "{}" });
    expect(own.status).toBe(404);
  });
});
