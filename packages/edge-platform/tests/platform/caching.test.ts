import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

/** What the Worker answers is made for one request; static assets keep their own caching. */
const PER_REQUEST = "private, no-store";
/** Workers static assets' default: the browser may keep it, but revalidates (ETag) every time. */
const ASSET_DEFAULT = "public, max-age=0, must-revalidate";

const CLIENT_BUILD = join(FIXTURE_BUILD_DIRECTORY, "client");

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

function request(path: string, init?: RequestInit) {
  return fetch(new URL(path, app.url), { redirect: "manual", ...init });
}

async function formPost(path: string, fields: Record<string, string>, origin = app.url.origin) {
  return request(path, { method: "POST", body: new URLSearchParams(fields), headers: { Origin: origin } });
}

describe("every answer of the Worker tells shared caches not to store it", () => {
  test.each([
    ["a page rendered per request (its CSP nonce)", "/now", 200],
    ["a page with a form (its submission id)", "/messages", 200],
    ["page data", "/now.data", 200],
    ["page data of a page with a form", "/messages.data", 200],
    ["the 404 page", "/no-such-page", 404],
    ["404 page data", "/no-such-page.data", 404],
    ["the application-error page", "/failures/loader", 500],
    ["a redirect", "/items/AMS", 301],
    ["a data request naming no route (the Worker's own 400)", "/now.data?_routes=nope", 400],
    ["the tunnel when it is off", "/monitoring", 404],
  ])("%s: %s", async (_, path, status) => {
    const response = await request(path);
    expect(response.status).toBe(status);
    expect(response.headers.get("cache-control")).toBe(PER_REQUEST);
  });

  test.each([
    ["a 405 (Allow kept)", "DELETE", 405],
    ["a 400 with the typed values", "POST", 400],
  ])("/messages answering %s", async (_, method, status) => {
    const response =
      method === "POST"
        ? await formPost("/messages", { submissionId: "x", name: "", text: "" })
        : await request("/messages", { method, headers: { Origin: app.url.origin } });
    expect(response.status).toBe(status);
    expect(response.headers.get("cache-control")).toBe(PER_REQUEST);
  });

  test("the cross-site gate's 403", async () => {
    const response = await formPost("/messages", { text: "hi" }, "https://evil.example");
    expect(response.status).toBe(403);
    expect(response.headers.get("cache-control")).toBe(PER_REQUEST);
  });

  test("the redirect after a post (post/redirect/get)", async () => {
    const html = await (await request("/messages")).text();
    const submissionId = html.match(/name="submissionId" value="([^"]+)"/)?.[1] ?? "";
    const response = await formPost("/messages", { submissionId, name: "Ada", text: "Cached?" });
    expect(response.status).toBe(303);
    expect(response.headers.get("cache-control")).toBe(PER_REQUEST);
  });
});

describe("static assets keep their caching", () => {
  test.each(["/", "/about", "/glossary/edge", "/about.data", "/_root.data", "/robots.txt"])(
    "%s: revalidated by ETag (304 when unchanged), shareable",
    async (path) => {
      const response = await request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe(ASSET_DEFAULT);
      const etag = response.headers.get("etag") ?? "";
      expect(etag).toBeTruthy();
      const again = await request(path, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
    },
  );

  // The icon included: Chromium asks for it again after every client navigation (packages/edge-platform/docs/decisions/018-paint-first.md).
  test.each(["/", "/about"])(
    "%s: every file its <head> names is a hashed built file, cached for a year",
    async (path) => {
      const head = (await (await request(path)).text()).split("</head>")[0] ?? "";
      const hrefs = [...head.matchAll(/<link\b[^>]*\bhref="([^"]+)"/g)].map((match) => match[1] ?? "");
      expect(hrefs.filter((href) => /\.(svg|css|js)$/.test(href)).length).toBeGreaterThanOrEqual(4);
      for (const href of hrefs) {
        expect(href).toMatch(/^\/assets\/[\w.-]+-[\w-]{8}\.(svg|css|js)$/);
        const response = await request(href);
        expect(response.status).toBe(200);
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      }
    },
  );
});

describe("pre-rendered page data has the type React Router gives page data rendered per request", () => {
  test("every .data file of the build is served with that Content-Type", async () => {
    const perRequest = (await request("/now.data")).headers.get("content-type");
    expect(perRequest).toBe("text/x-script");
    const files = (await readdir(CLIENT_BUILD, { recursive: true })).filter((file) => file.endsWith(".data"));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const response = await request(`/${file.split("\\").join("/")}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toBe(perRequest);
      await response.arrayBuffer();
    }
  });

  test("one _headers rule covers them all (the file has room for 100 rules)", async () => {
    const headersFile = await readFile(join(CLIENT_BUILD, "_headers"), "utf8");
    const dataRules = headersFile.split("\n").filter((line) => /^\/\S*\.data$/.test(line));
    expect(dataRules).toEqual(["/*.data"]);
  });
});
