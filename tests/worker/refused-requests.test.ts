import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { TEST_VARS } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// Found by probing (packages/edge-platform/docs/decisions/019-probe-findings.md): `PATCH /now` showed React Router's developer
// message, naming the route, on the page and in its description; 404 and 405 page data said "Internal Server
// Error".

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ vars: TEST_VARS, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

function send(method: string, path: string) {
  return fetch(new URL(path, app.url), { method, headers: { Origin: app.url.origin }, redirect: "manual" });
}

const PLAIN_405 = "Method Not Allowed: this page does not accept that kind of request.";

describe("a refused method gets a plain Method Not Allowed page naming no route", () => {
  test.each([
    ["PATCH", "/now"],
    ["DELETE", "/items/ams"],
    ["PUT", "/"],
    ["POST", "/about"],
  ])("%s %s: 405 with Allow, the plain sentence, no developer message", async (method, path) => {
    const response = await send(method, path);
    expect(response.status).toBe(405);
    expect(response.statusText).toBe("Method Not Allowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const html = await response.text();
    expect(html).toContain("<title>405: Method Not Allowed</title>");
    expect(html).toContain(`<meta name="description" content="${PLAIN_405}"/>`);
    expect(html).toContain(`<p>${PLAIN_405}</p>`);
    expect(html).not.toMatch(/You made a|did not provide|for route|Invalid request method/);
  });

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
});

describe("page data (.data) of a refusal carries its status's own text", () => {
  test.each([
    ["a thrown 404 (no such item)", "GET", "/items/nowhere.data", 404, "Not Found"],
    ["a thrown 404 (no such glossary term)", "GET", "/glossary/nowhere.data", 404, "Not Found"],
    ["a route's own 405", "PUT", "/messages.data", 405, "Method Not Allowed"],
    ["React Router's 405", "PATCH", "/now.data", 405, "Method Not Allowed"],
  ])("%s: %s %s", async (_, method, path, status, text) => {
    const response = await send(method, path);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("text/x-script");
    const body = await response.text();
    expect(body).toContain(`${status},"${text}"]`);
    expect(body).not.toContain("Internal Server Error");
    if (status === 405) expect(response.headers.get("allow")).toMatch(/^(POST|GET, HEAD)$/);
  });
});
