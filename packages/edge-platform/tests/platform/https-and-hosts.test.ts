import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { type RawResponse, rawHead, rawRequest } from "../../src/testing/raw-http.ts";
import { fixtureWrites } from "./support/fixture-writes.ts";

/**
 * Against the fixture's built Worker in workerd: plain http is sent to https except on loopback hosts, and
 * the local server answers only for the hosts it serves (DNS rebinding). workerd builds `request.url` from
 * the Host header (and X-Forwarded-Proto, as a TLS-terminating proxy sends it), so a raw request with
 * another Host is what a request for that name looks like to the Worker.
 */

let app: ServedBuild;
let logs: WorkerdStructuredLog[] = [];
/** Posts to /messages the fixture accepted (where a product would store them). */
const writes = fixtureWrites();

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: (log) => {
      logs.push(log);
      writes.onLog(log);
    },
    allowedHosts: ["app.example", ".preview.example"],
  });
});

afterAll(async () => {
  await app?.close();
});

function send(
  host: string,
  path: string,
  { method = "GET", lines = [] as string[], body = "" } = {},
): Promise<RawResponse> {
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${host}`,
    "Connection: close",
    ...lines,
    ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
    "",
    "",
  ].join("\r\n");
  return rawRequest(app.url, head, body);
}

/** A form post to /messages with a fresh submission id, as a page served for `host` would send it. */
async function postMessage(host: string, origin: string, extraLines: string[] = []): Promise<RawResponse> {
  const html = (await send(`127.0.0.1:${app.url.port}`, "/messages")).body;
  const submissionId = html.match(/name="submissionId" value="([^"]+)"/)?.[1] ?? "";
  return send(host, "/messages", {
    method: "POST",
    lines: [`Origin: ${origin}`, "Content-Type: application/x-www-form-urlencoded", ...extraLines],
    body: new URLSearchParams({ submissionId, name: "Mallory", text: "rebound" }).toString(),
  });
}

describe("plain http on a public host is sent to https (308: method and body kept)", () => {
  test.each([
    ["GET", "/now", "https://app.example/now"],
    ["GET", "/items/ams?tab=1", "https://app.example/items/ams?tab=1"],
    ["HEAD", "/now.data", "https://app.example/now.data"],
    ["GET", "/monitoring", "https://app.example/monitoring"],
  ])("%s %s", async (method, path, location) => {
    const response = await send("app.example", path, { method });
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe(location);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  test("a POST is redirected before any action code runs: nothing stored", async () => {
    const before = await writes.settled();
    const response = await postMessage("app.example", "http://app.example");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("https://app.example/messages");
    expect(await writes.settled()).toBe(before);
  });

  test("the same post over https is accepted: one write (so the refusals' counts can fail)", async () => {
    const before = await writes.settled();
    const response = await postMessage("app.example", "https://app.example", ["X-Forwarded-Proto: https"]);
    expect(response.status).toBe(303);
    expect(await writes.settled()).toBe(before + 1);
  });

  test("the same request over https (X-Forwarded-Proto from the TLS proxy) is answered", async () => {
    const response = await send("app.example", "/now", { lines: ["X-Forwarded-Proto: https"] });
    expect(response.status).toBe(200);
    expect(response.body).toContain("<!DOCTYPE html>");
  });
});

describe("loopback hosts are served as they are: plain http, no redirect", () => {
  test.each(["127.0.0.1", "localhost", "app.localhost", "[::1]"])("%s", async (hostname) => {
    const response = await send(`${hostname}:${app.url.port}`, "/now");
    expect(response.status).toBe(200);
    expect(response.body).toContain("<!DOCTYPE html>");
  });
});

describe("the local server refuses hosts it does not serve (DNS rebinding)", () => {
  test.each([
    ["a page", "/now"],
    ["page data", "/now.data"],
    ["a static page (an asset)", "/about"],
    ["a static file", "/robots.txt"],
  ])("Host: evil.example, %s: 403", async (_, path) => {
    const response = await send("evil.example", path);
    expect(response.status).toBe(403);
    expect(response.body).toMatch(/LOCAL_ALLOWED_HOSTS/);
  });

  test("a rebound page posting to itself passes no same-origin check: 403, nothing stored", async () => {
    const before = await writes.settled();
    const port = app.url.port;
    const response = await postMessage(`evil.example:${port}`, `http://evil.example:${port}`);
    expect(response.status).toBe(403);
    expect(await writes.settled()).toBe(before);
  });

  test("the app does not run for a refused host (a failing loader logs nothing)", async () => {
    logs = [];
    expect((await send("evil.example", "/failures/loader")).status).toBe(403);
    expect((await send(`localhost:${app.url.port}`, "/failures/loader")).status).toBe(500);
    const serverErrors = logs.filter((log) => log.message.includes('"event":"server_error"'));
    expect(serverErrors).toHaveLength(1);
  });

  test.each([
    ["a name that only ends like an allowed one", "evilapp.example"],
    ["a look-alike of a domain rule", "evilpreview.example"],
    ["a subdomain of an exact rule", "www.app.example"],
    ["an IP address other than loopback", "10.0.0.1"],
  ])("%s (%s): 403", async (_, host) => {
    expect((await send(host, "/now")).status).toBe(403);
  });

  test.each([
    ["an exact configured name", "app.example"],
    ["a configured domain", "preview.example"],
    ["a subdomain of a configured domain", "pr-7.preview.example"],
    ["a configured name in capitals", "APP.EXAMPLE"],
  ])("%s (%s) reaches the Worker", async (_, host) => {
    const response = await send(host, "/now", { lines: ["X-Forwarded-Proto: https"] });
    expect(response.status).toBe(200);
  });
});

// Found by probing (packages/edge-platform/docs/decisions/016-platform-plugin-and-local-server.md, issue 41):
// Miniflare obeys `MF-Original-URL` (replaces the URL), `MF-Route-Override` (sends the request to a Worker by
// name) and `MF-CF-Blob` (sets `request.cf`) from any client. The served socket refuses them all.
describe("Miniflare's own headers from a client are refused", () => {
  test.each([
    [
      "MF-Original-URL naming 127.0.0.1",
      (port: string) => `MF-Original-URL: http://127.0.0.1:${port}/messages`,
    ],
    ["MF-Route-Override to the app by its usual name", () => "MF-Route-Override: app"],
    ["MF-Route-Override to the guard itself", () => "MF-Route-Override: local-host-guard"],
    [
      "MF-Route-Override to the Workers Cache's way in",
      () => "MF-Route-Override: local-workers-cache-origin",
    ],
    ["MF-CF-Blob choosing the visitor's country", () => 'MF-CF-Blob: {"country":"KP"}'],
  ])("%s: 400, under a loopback Host and under evil.example", async (_, line) => {
    for (const host of [`127.0.0.1:${app.url.port}`, "evil.example"]) {
      const response = await send(host, "/messages", {
        lines: [line(app.url.port), "X-Forwarded-Proto: https"],
      });
      expect(response.status, host).toBe(400);
      expect(response.body).toContain("Miniflare's own headers");
      expect(response.body).not.toContain("<!DOCTYPE html>");
    }
  });

  test("posting with them: 400, nothing stored", async () => {
    const before = await writes.settled();
    const port = app.url.port;
    const response = await postMessage(`127.0.0.1:${port}`, `http://127.0.0.1:${port}`, [
      "MF-Route-Override: app",
    ]);
    expect(response.status).toBe(400);
    expect(await writes.settled()).toBe(before);
  });
});

// CONNECT is not among them: workerd answers it before any Worker code runs (packages/edge-platform/docs/decisions/016): 500 when
// the Worker has no connect() handler, 200 and a tunnel when it has one. Browsers cannot send it, so it is
// no DNS-rebinding route; what matters is that it answers at once, closes, and tunnels nothing.
test("CONNECT: an immediate answer and a closed connection, with nothing tunnelled to the app", async () => {
  const tunnelled = rawHead("GET", "/messages", app.url);
  const response = await rawRequest(
    app.url,
    `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n${tunnelled}`,
    "",
    5_000,
  );
  expect(response.status).toBe(500);
  expect(response.body).not.toContain("<!DOCTYPE html>");
  expect(response.body).not.toContain("HTTP/1.1 200");
});

// A method workerd's HTTP parser does not know (anything beyond the registered methods it lists) is answered
// 501 by workerd itself before any Worker code runs, and the runtime offers a Worker no way to answer it; on
// Cloudflare the edge answers it. Pinned so a change of runtime that lets the Worker answer shows here.
test.each(["BREW", "FOO"])(
  "%s, an unknown method: the runtime's 501 at once, nothing of the app",
  async (method) => {
    const response = await rawRequest(app.url, rawHead(method, "/messages", app.url), "", 5_000);
    expect(response.status).toBe(501);
    expect(response.body).not.toContain("<!DOCTYPE html>");
  },
);

describe("malformed requests to the local server get 400, not a bare 500", () => {
  test("OPTIONS *", async () => {
    const response = await rawRequest(app.url, rawHead("OPTIONS", "*", app.url));
    expect(response.status).toBe(400);
  });

  test("two Host headers", async () => {
    const response = await send(`127.0.0.1:${app.url.port}`, "/now", { lines: ["Host: evil.example"] });
    expect(response.status).toBe(400);
  });
});
