import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { SERVER_ERROR_MESSAGE } from "../../src/errors/error-page";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

let app: ServedBuild;
let logs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: (log) => logs.push(log),
  });
});

afterAll(async () => {
  await app?.close();
});

beforeEach(() => {
  logs = [];
});

function get(path: string) {
  return fetch(new URL(path, app.url), { redirect: "manual" });
}

function serverErrorLines() {
  return logs
    .filter((log) => log.message.includes('"event":"server_error"'))
    .map((log) => JSON.parse(log.message) as { digest: string; path: string; error: { message: string } });
}

async function waitForLogs() {
  // workerd hands log lines over asynchronously to the response.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const DIGEST = /Digest: (?:<!-- -->)?([0-9a-z]{13})</;

// Every reference failure's message starts with this; none of it may reach the browser.
const FAILURE_MESSAGE = "Reference failure";

describe.each([
  ["a loader throws", "/failures/loader"],
  ["a component throws while rendering on the server", "/failures/render"],
  ["the route's headers export throws", "/failures/headers"],
  ["the route's meta export throws", "/failures/meta"],
])("when %s", (_, path) => {
  test("the document answers 500 with the application-error page and a digest", async () => {
    const response = await get(path);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain(SERVER_ERROR_MESSAGE);
    expect(html).toMatch(DIGEST);
  });

  test("neither the message nor the stack reaches the browser", async () => {
    for (const url of [path, `${path}.data`]) {
      const body = await (await get(url)).text();
      expect(body).not.toContain(FAILURE_MESSAGE);
      expect(body).not.toMatch(/\bat [\w$.]+ \(/);
      expect(body).not.toContain("Unexpected Server Error");
    }
  });

  test("the server logs one structured line carrying the digest the page shows", async () => {
    const html = await (await get(path)).text();
    await waitForLogs();
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ digest: html.match(DIGEST)?.[1], path });
    expect(lines[0]?.error.message).toContain(FAILURE_MESSAGE);
  });

  test("the same error gets the same digest on every request", async () => {
    const first = (await (await get(path)).text()).match(DIGEST)?.[1];
    const second = (await (await get(path)).text()).match(DIGEST)?.[1];
    expect(first).toBeDefined();
    expect(first).toBe(second);
  });
});

describe("page data of a failing loader (client-side navigation)", () => {
  test("answers 500 carrying the same digest as the document", async () => {
    const html = await (await get("/failures/loader")).text();
    const data = await get("/failures/loader.data");
    expect(data.status).toBe(500);
    expect(await data.text()).toContain(html.match(DIGEST)?.[1]);
  });
});

describe("page data of a route whose headers export throws", () => {
  test("answers 500 with the digest of its one log line, for the root's error page", async () => {
    const data = await get("/failures/headers.data");
    expect(data.status).toBe(500);
    const body = await data.text();
    await waitForLogs();
    const lines = serverErrorLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.path).toBe("/failures/headers.data");
    expect(body).toContain(`"digest","${lines[0]?.digest}"`);
    expect(body).toContain('"root"');
  });

  test.each(["/failures/headers", "/failures/headers.data"])(
    "an action at %s whose headers throw answers the error page with its digest, and runs once",
    async (path) => {
      const response = await fetch(new URL(path, app.url), {
        method: "POST",
        headers: { origin: app.url.origin, "content-type": "application/x-www-form-urlencoded" },
        body: "x=1",
        redirect: "manual",
      });
      expect(response.status).toBe(500);
      const body = await response.text();
      await waitForLogs();
      const [line, ...others] = serverErrorLines();
      expect(others).toEqual([]);
      expect(body).toContain(line?.digest);
      expect(logs.filter((log) => log.message.includes('"event":"fixture_action"'))).toHaveLength(1);
    },
  );
});

describe("a 5xx a route answers itself", () => {
  test("is logged once, with its route, status and a request id, and is no server error", async () => {
    for (const path of ["/failures/status", "/failures/status.data"]) {
      const response = await get(path);
      expect(response.status).toBe(503);
      await response.body?.cancel();
    }
    await waitForLogs();
    expect(serverErrorLines()).toEqual([]);
    const lines = logs
      .filter((log) => log.message.includes('"event":"server_error_status"'))
      .map((log) => JSON.parse(log.message) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ status: 503, route: "/failures/status", path: "/failures/status" });
    expect(lines[0]?.request_id).toEqual(expect.any(String));
    expect(lines[0]?.request_id).not.toBe(lines[1]?.request_id);
  });
});

describe("control flow is not an error", () => {
  test("a thrown redirect logs no server error", async () => {
    await get("/items/AMS");
    await get("/items/AMS.data");
    await waitForLogs();
    expect(serverErrorLines()).toEqual([]);
  });

  test("a 404 logs no server error", async () => {
    await get("/items/nope");
    await get("/no/such/page.data");
    await waitForLogs();
    expect(serverErrorLines()).toEqual([]);
  });
});

describe("a refused method (decision 019: React Router's developer message named the route)", () => {
  function patch(path: string) {
    return fetch(new URL(path, app.url), { method: "PATCH", redirect: "manual" });
  }

  test("a mutation to a page without an action: a plain 405 page with Allow, no route named, no error logged", async () => {
    const response = await patch("/now");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const html = await response.text();
    expect(html).toContain("<p>Method Not Allowed: this page does not accept that kind of request.</p>");
    expect(html).not.toMatch(/You made a|for route/);
    await waitForLogs();
    expect(serverErrorLines()).toEqual([]);
  });

  test("its page data says Method Not Allowed, with Allow, and names no route", async () => {
    const response = await patch("/now.data");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const body = await response.text();
    expect(body).toContain('405,"Method Not Allowed"]');
    expect(body).not.toMatch(/You made a|for route/);
  });
});

describe("the failure routes in the deployed configuration", () => {
  test("answer 404 when ENABLE_FAILURE_ROUTES is not set to true", async () => {
    const deployed = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY });
    try {
      for (const path of [
        "/failures/loader",
        "/failures/render",
        "/failures/client",
        "/failures/loader.data",
      ]) {
        const response = await fetch(new URL(path, deployed.url));
        expect(response.status, path).toBe(404);
        await response.body?.cancel();
      }
    } finally {
      await deployed.close();
    }
  });
});
