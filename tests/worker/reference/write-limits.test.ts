import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { inOneWindow, TEST_VARS } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedMessageCount } from "../../support/reference/messages-db.ts";

// The product's /messages under wrangler.toml's write limit (WRITE_RATE_LIMIT: 10 per 10 s per client).
const WRITES = { limit: 10, period: 10 };

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ vars: TEST_VARS, onLog: () => {} });
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

function postForm(path: string, fields: Record<string, string>) {
  return fetch(new URL(path, app.url), {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: app.url.origin },
    redirect: "manual",
  });
}

describe("posting messages past the write limit", () => {
  test("stores the first `limit`; then answers 429, keeps the typed text, says when to retry and stores nothing", async () => {
    const ids = await Promise.all(Array.from({ length: WRITES.limit + 2 }, () => submissionId()));
    await inOneWindow(WRITES.period, 5_000);
    const before = await storedMessageCount(app);
    for (const [index, id] of ids.slice(0, WRITES.limit).entries()) {
      const response = await postForm("/messages", { submissionId: id, name: "Ada", text: `post ${index}` });
      expect(response.status).toBe(303);
    }
    expect(await storedMessageCount(app)).toBe(before + WRITES.limit);

    const refusedId = ids[WRITES.limit] as string;
    const refused = await postForm("/messages", {
      submissionId: refusedId,
      name: "Grace",
      text: "Typed, not lost",
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(WRITES.period));
    const page = await refused.text();
    expect(page).toMatch(/<input id="message-name"[^>]*value="Grace"/);
    expect(page).toMatch(/<textarea id="message-text"[^>]*>Typed, not lost<\/textarea>/);
    expect(page).toMatch(/role="alert"[^>]*>[^<]*send again in 10 seconds/);
    // The posted id stays in the form: nothing was stored under it, so sending again is a first post.
    expect(page).toContain(`name="submissionId" value="${refusedId}"`);

    const data = await postForm("/messages.data", {
      submissionId: ids[WRITES.limit + 1] as string,
      name: "Grace",
      text: "From the browser",
    });
    expect(data.status).toBe(429);
    expect(data.headers.get("retry-after")).toBe(String(WRITES.period));
    expect(await data.text()).toContain('"From the browser"');

    expect(await storedMessageCount(app)).toBe(before + WRITES.limit);
  });
});
