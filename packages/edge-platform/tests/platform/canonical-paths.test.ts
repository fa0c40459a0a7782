import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

/**
 * One page, one address (packages/edge-platform/docs/caching.md), against the fixture in workerd: every other spelling of a page's
 * path is sent to its canonical one before anything renders (no page cache, no pre-rendered asset).
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

function request(path: string, init: RequestInit = {}) {
  // Built from the origin as a string: `new URL("//x", base)` would name another host.
  return fetch(`${app.url.origin}${path}`, { redirect: "manual", ...init });
}

async function expectCanonical(path: string, location: string, method = "GET") {
  const response = await request(path, { method });
  await response.body?.cancel();
  expect(response.status, `${method} ${path}`).toBe(308);
  expect(response.headers.get("Location"), `${method} ${path}`).toBe(location);
  // Made for this request by the gateway, before anything could be shared: the redirect never reaches the
  // Workers Cache (in front of the SharedPages entrypoint only), which keeps no copy of it.
  expect(response.headers.get("cf-cache-status")).toBeNull();
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
}

describe("another spelling of a page is sent to its canonical one (308)", () => {
  test.each([
    ["/About", "/about"],
    ["/ABOUT", "/about"],
    ["/ITEMS/ams", "/items/ams"],
    ["/items/%61ms", "/items/ams"],
    ["/Items/%61ms", "/items/ams"],
    ["/Now", "/now"],
    ["/Glossary/edge", "/glossary/edge"],
    ["/Glossary/EDGE", "/glossary/EDGE"],
    ["/glossary/%65dge", "/glossary/edge"],
    ["/Client-Data/Direct", "/client-data/direct"],
    ["/items/a:b", "/items/a%3Ab"],
  ])("%s -> %s", async (path, location) => {
    await expectCanonical(path, location);
  });

  test("a HEAD too", async () => {
    await expectCanonical("/About", "/about", "HEAD");
    await expectCanonical("/items/%61ms", "/items/ams", "HEAD");
  });

  test("the query is kept exactly as it came", async () => {
    await expectCanonical("/Now?b=2&a=1&a=0", "/now?b=2&a=1&a=0");
    await expectCanonical("/ITEMS/ams?q=%41%20b", "/items/ams?q=%41%20b");
  });

  test("a trailing slash is dropped, as the pre-rendered pages' assets drop it", async () => {
    await expectCanonical("/now/", "/now");
    await expectCanonical("/items/ams/", "/items/ams");
    // Another spelling besides: straight to the page, not to `/about/` and the assets' redirect.
    await expectCanonical("/About/", "/about");
    await expectCanonical("/Glossary/edge/", "/glossary/edge");
  });

  test("page data of another spelling is sent to the canonical page's data", async () => {
    await expectCanonical("/Now.data", "/now.data");
    await expectCanonical("/now/.data", "/now.data");
    await expectCanonical("/About.data", "/about.data");
    await expectCanonical("/.data", "/_root.data");
    await expectCanonical("/items/%61ms.data?_routes=routes%2Fitem", "/items/ams.data?_routes=routes%2Fitem");
  });

  test("a client that follows it (fetch, as React Router's single fetch does) gets the canonical page", async () => {
    const page = await fetch(`${app.url.origin}/About`);
    expect(page.status).toBe(200);
    expect(new URL(page.url).pathname).toBe("/about");
    // The pre-rendered asset, not a render: served with its ETag.
    expect(page.headers.get("ETag")).toBeTruthy();
    expect(await page.text()).toContain("<h1");
    const data = await fetch(`${app.url.origin}/ITEMS/ams.data`);
    expect(data.status).toBe(200);
    expect(new URL(data.url).pathname).toBe("/items/ams.data");
    expect(await data.text()).toContain("Amsterdam");
  });

  test("the route's own redirect of an id's other spellings still comes after (301, lower case)", async () => {
    await expectCanonical("/items/%41MS", "/items/AMS");
    const response = await request("/items/AMS");
    expect(response.status).toBe(301);
    expect(response.headers.get("Location")).toBe("/items/ams");
  });
});

describe("left alone", () => {
  test.each(["/", "/about", "/now", "/now?x=1", "/items/ams", "/glossary/edge", "/now.data", "/_root.data"])(
    "%s, already canonical, is answered as before",
    async (path) => {
      const response = await request(path);
      await response.body?.cancel();
      expect(response.status).toBe(200);
    },
  );

  test("a canonical HEAD", async () => {
    const response = await request("/now?x=1", { method: "HEAD" });
    expect(response.status).toBe(200);
  });

  test.each(["/Nope", "/nope/", "/NOPE.data", "/about/More", "/items/ams/more"])(
    "%s matches no route: 404, whatever its spelling",
    async (path) => {
      const response = await request(path);
      await response.body?.cancel();
      expect(response.status).toBe(404);
    },
  );

  test.each(["/items/%ZZ", "/Items/%E0%A4%A", "/items/ams%"])(
    "%s cannot be decoded (React Router matches it as it is): left to its 404, never redirected",
    async (path) => {
      const response = await request(path);
      await response.body?.cancel();
      expect(response.status).toBe(404);
      expect(response.headers.get("Location")).toBeNull();
    },
  );

  test("a canonical path whose page is not there: the route's 404", async () => {
    const response = await request("/glossary/EDGE");
    await response.body?.cancel();
    expect(response.status).toBe(404);
  });

  test.each(["/about/", "/glossary/edge/", "/%61bout"])(
    "%s: a pre-rendered page's other spelling the assets answer themselves (307), as before",
    async (path) => {
      // `/glossary/edge/` reaches the Worker (the static route's rule is `/glossary/*`), which leaves a
      // pre-rendered page's trailing slash to the assets: React Router's pre-renderer asks for `/page/`.
      const response = await request(path);
      expect(response.status).toBe(307);
      expect(new URL(response.headers.get("Location") ?? "", app.url).pathname).toBe(
        path === "/glossary/edge/" ? "/glossary/edge" : "/about",
      );
    },
  );

  test("a form post to another spelling is answered where it was posted, never redirected", async () => {
    const response = await request("/Messages", {
      method: "POST",
      headers: { Origin: app.url.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "text=hello",
    });
    await response.body?.cancel();
    expect(response.status).not.toBe(308);
  });
});
