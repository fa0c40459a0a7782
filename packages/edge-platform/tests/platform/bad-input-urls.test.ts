import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { rawHead, rawRequest } from "../../src/testing/raw-http.ts";

// Bad URLs : each answers a clear 4xx (or the page the URL normalises to), never a 500, and
// never a redirect off the site. GETs change nothing; no case may reach the server-error path.

let app: ServedBuild;
const errorLogs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: (log) => log.level === "error" && errorLogs.push(log),
  });
});

afterAll(async () => {
  await app?.close();
  expect(errorLogs.map((log) => log.message)).toEqual([]);
});

/** The request target is sent byte for byte (fetch() would normalise most of these). */
function get(target: string) {
  return rawRequest(app.url, rawHead("GET", target, app.url));
}

describe("encoded slashes and backslashes name no route", () => {
  test.each([
    "/items/a%2Fb",
    "/items/ams%2F..%2F..%2Fabout",
    "/items/a%5Cb",
    "/items/a%5C..%5Cabout",
    "/assets/..%2f..%2fwrangler.toml",
    "/assets/%2e%2e/%2e%2e/server/index.js",
  ])("%s answers 404", async (target) => {
    const response = await get(target);
    expect(response.status).toBe(404);
    expect(response.body).not.toMatch(/compatibility_date|__reactRouterContext\.state|import\.meta/);
  });

  test("a slug with lower-case escapes is first sent to their canonical spelling on the site, then 404", async () => {
    // `glossary/:slug` matches it: the value is the same, its canonical spelling has upper-case escapes
    // (packages/edge-platform/docs/caching.md, "One page, one key").
    const response = await get("/glossary/..%2f..%2fwrangler.toml");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/glossary/..%2F..%2Fwrangler.toml");
    const followed = await get("/glossary/..%2F..%2Fwrangler.toml");
    expect(followed.status).toBe(404);
    expect(followed.body).not.toMatch(/compatibility_date|__reactRouterContext\.state|import\.meta/);
  });

  test("a raw backslash is a slash, as browsers read it: /items\\ams is /items/ams", async () => {
    const response = await get("/items\\ams");
    expect(response.status).toBe(200);
    expect(response.body).toContain("<h1>Amsterdam</h1>");
  });

  test.each(["//evil.example/", "/\\evil.example/", "/%2F%2Fevil.example", "/items/%2F%2Fevil.example"])(
    "%s answers 404, not a redirect to another site",
    async (target) => {
      const response = await get(target);
      expect(response.status).toBe(404);
      expect(response.headers.get("location")).toBeUndefined();
    },
  );
});

describe("dot segments stay inside the site", () => {
  test.each(["/items/../about", "/%2e%2e/about", "/items/%2e%2e/about", "/glossary/./../about"])(
    "%s is /about",
    async (target) => {
      const response = await get(target);
      expect(response.status).toBe(200);
      expect(response.body).toContain("<h1>About</h1>");
    },
  );

  test.each(["/../../wrangler.toml", "/server/index.js", "/server/wrangler.json", "/_headers"])(
    "%s: build and config files are not served (404)",
    async (target) => {
      const response = await get(target);
      expect(response.status).toBe(404);
      expect(response.body).not.toMatch(/compatibility_date|SENTRY_DSN|Content-Security-Policy:/);
    },
  );
});

describe("overlong URLs", () => {
  test("an 8 KB path answers 404", async () => {
    expect((await get(`/items/${"a".repeat(8192)}`)).status).toBe(404);
  });

  test("an 8 KB query on a page is ignored (200)", async () => {
    expect((await get(`/now?q=${"a".repeat(8192)}`)).status).toBe(200);
  });

  test("a 64 KB path is refused by the runtime with 414", async () => {
    expect((await get(`/${"a".repeat(65_536)}`)).status).toBe(414);
  });
});

describe("invalid percent-encoding", () => {
  test.each(["/items/%E0%A4%A", "/items/%ZZ", "/%", "/items/ams%", "/glossary/%ff", "/glossary/%C0%AF"])(
    "%s answers 404",
    async (target) => {
      const response = await get(target);
      expect(response.status).toBe(404);
      expect(response.headers.get("location")).toBeUndefined();
    },
  );

  test("a raw NUL in the path is refused with 400", async () => {
    expect((await get("/items/\0")).status).toBe(400);
  });
});

describe("page data (.data) requests", () => {
  test.each(["/nope.data", "/items/zzz.data", "/glossary/nope.data", "/messages/x.data"])(
    "%s (no such page) answers 404",
    async (target) => {
      expect((await get(target)).status).toBe(404);
    },
  );

  test.each([
    ["an id that is no route", "/items/ams.data?_routes=nonexistent"],
    ["one good id and one unknown", "/items/ams.data?_routes=routes/item,zzz"],
    ["invalid percent-encoding", "/items/ams.data?_routes=%ZZ"],
    ["a path", "/now.data?_routes=../../wrangler.toml"],
  ])("_routes naming %s answers 400 and says so", async (_, target) => {
    const response = await get(target);
    expect(response.status).toBe(400);
    expect(response.body).toMatch(/^Bad Request: _routes names no route of this app/);
  });

  test("_routes listing real routes still works", async () => {
    const response = await get("/items/ams.data?_routes=root,routes/item");
    expect(response.status).toBe(200);
    expect(response.body).toContain("Amsterdam");
  });
});
