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

// Found by probing (packages/edge-platform/docs/decisions/019-probe-findings.md): `PATCH /now` showed React Router's developer
// message, naming the route, on the page and in its description; 404 and 405 page data said "Internal Server
// Error".
describe("a refused method gets a plain Method Not Allowed page naming no route (decision 019)", () => {
  const PLAIN_405 = "Method Not Allowed: this page does not accept that kind of request.";

  function send(method: string, path: string) {
    return fetch(new URL(path, app.url), { method, headers: { Origin: app.url.origin }, redirect: "manual" });
  }

  test.each([
    ["PATCH", "/now"],
    ["DELETE", "/items/ams"],
    ["PUT", "/"],
    ["POST", "/about"],
  ])(
    "%s %s: 405 with Allow, the plain sentence, no developer message, no error logged",
    async (method, path) => {
      const response = await send(method, path);
      expect(response.status).toBe(405);
      expect(response.statusText).toBe("Method Not Allowed");
      expect(response.headers.get("allow")).toBe("GET, HEAD");
      const html = await response.text();
      expect(html).toContain("<title>405: Method Not Allowed</title>");
      expect(html).toContain(`<meta name="description" content="${PLAIN_405}"/>`);
      expect(html).toContain(`<p>${PLAIN_405}</p>`);
      expect(html).not.toMatch(/You made a|did not provide|for route|Invalid request method/);
      await waitForLogs();
      expect(serverErrorLines()).toEqual([]);
    },
  );

  test("a method React Router does not handle (OPTIONS): 405 with Allow, the plain sentence, no route named", async () => {
    const response = await send("OPTIONS", "/now");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const html = await response.text();
    expect(html).toContain(`<p>${PLAIN_405}</p>`);
    expect(html).not.toMatch(/You made a|for route/);
  });

  test("a route's own 405 keeps its Allow and gets the same plain page", async () => {
    const response = await send("PUT", "/messages");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.text()).toContain(`<p>${PLAIN_405}</p>`);
  });

  test.each([
    ["a thrown 404 (no such item)", "GET", "/items/nowhere.data", 404, "Not Found"],
    ["a thrown 404 (no such glossary term)", "GET", "/glossary/nowhere.data", 404, "Not Found"],
    ["a route's own 405", "PUT", "/messages.data", 405, "Method Not Allowed"],
    ["React Router's 405", "PATCH", "/now.data", 405, "Method Not Allowed"],
  ])("page data of %s carries its status's own text: %s %s", async (_, method, path, status, text) => {
    const response = await send(method, path);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("text/x-script");
    const body = await response.text();
    expect(body).toContain(`${status},"${text}"]`);
    expect(body).not.toContain("Internal Server Error");
    expect(body).not.toMatch(/You made a|for route/);
    if (status === 405) expect(response.headers.get("allow")).toMatch(/^(POST|GET, HEAD)$/);
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
