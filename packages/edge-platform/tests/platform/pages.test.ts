import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

// The kinds of page the contract covers, on the fixture app: pre-rendered, rendered per request, a loader's
// redirect, not found. Their caching headers are caching.test.ts's, their policies security-headers.test.ts's.

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS });
});

afterAll(async () => {
  await app?.close();
});

function get(path: string, init?: RequestInit) {
  return fetch(new URL(path, app.url), { redirect: "manual", ...init });
}

describe("static pages (pre-rendered at build time, served as assets)", () => {
  test.each(["/", "/about", "/glossary", "/glossary/edge"])(
    "%s answers 200 with the same build-time HTML every time",
    async (path) => {
      const first = await get(path);
      const second = await get(path);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toMatch(/^text\/html/);
      expect(first.headers.get("etag")).toBeTruthy();
      expect(await first.text()).toBe(await second.text());
    },
  );

  test("/about/ redirects to /about", async () => {
    const response = await get("/about/");
    expect(response.status).toBe(307);
    expect(new URL(response.headers.get("location") ?? "", app.url).pathname).toBe("/about");
  });

  test("the data of a static page is a pre-rendered file too", async () => {
    const response = await get("/about.data");
    expect(response.status).toBe(200);
    const built = await readFile(join(FIXTURE_BUILD_DIRECTORY, "client", "about.data"), "utf8");
    expect(await response.text()).toBe(built);
  });
});

describe("dynamic pages (rendered per request)", () => {
  test("/now renders a new time on every request", async () => {
    const first = await (await get("/now")).text();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await get("/now");
    expect(second.status).toBe(200);
    const time = /<time dateTime="([^"]+)"/;
    expect(first.match(time)?.[1]).toBeDefined();
    expect(first.match(time)?.[1]).not.toBe((await second.text()).match(time)?.[1]);
  });

  test("/items/:id renders the item", async () => {
    const response = await get("/items/ams");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<h1>Amsterdam</h1>");
  });

  test("/items/:id.data answers the item's page data", async () => {
    const response = await get("/items/ams.data");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/x-script");
    expect(await response.text()).toContain("Amsterdam");
  });
});

describe("thrown redirects", () => {
  test("a document request follows the loader's redirect", async () => {
    const response = await get("/items/AMS");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/items/ams");
  });

  test("a data request carries the redirect for the client router instead of an error", async () => {
    const response = await get("/items/AMS.data");
    expect(response.status).toBe(202);
    const body = await response.text();
    expect(body).toContain("/items/ams");
    expect(body).not.toContain("digest");
  });
});

describe("not found", () => {
  test.each(["/items/nope", "/no/such/page"])("%s answers the 404 page with status 404", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("This page could not be found.");
    expect(html).not.toContain("Application error");
  });

  test.each(["/items/nope.data", "/no/such/page.data"])("%s answers 404", async (path) => {
    expect((await get(path)).status).toBe(404);
  });

  test("a POST to an unknown URL answers 404, not 500", async () => {
    const response = await get("/no/such/page", { method: "POST", body: new URLSearchParams({ a: "1" }) });
    expect(response.status).toBe(404);
  });
});
