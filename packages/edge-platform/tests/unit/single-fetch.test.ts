import { describe, expect, test } from "vitest";
import {
  isPageDataPath,
  pageDataPath,
  pageDataUrl,
  pageOfDataPath,
  pageOfPath,
  requestedRouteIds,
} from "../../src/single-fetch";

/** What React Router's browser code asks for (7.x, trailing-slash-aware data requests off) and its server reads. */
describe("single-fetch URLs", () => {
  test.each([
    ["/", "/_root.data"],
    ["/about", "/about.data"],
    ["/about/", "/about.data"],
    ["/items/ams", "/items/ams.data"],
  ])("the data of %s is asked for at %s", (page, data) => {
    expect(pageDataPath(page)).toBe(data);
  });

  test.each([
    ["/_root.data", "/"],
    ["/.data", "/"],
    ["/about.data", "/about"],
    ["/about/.data", "/about"],
    ["/About.data", "/About"],
    ["/items/ams.data", "/items/ams"],
    ["/about", undefined],
    ["/app.js", undefined],
  ])("%s is the data of %s (as React Router's server reads it)", (path, page) => {
    expect(pageOfDataPath(path)).toBe(page);
    expect(isPageDataPath(path)).toBe(page !== undefined);
  });

  test("under a basename", () => {
    expect(pageOfDataPath("/app/_root.data", "/app/")).toBe("/app");
    expect(pageOfDataPath("/app/about.data", "/app")).toBe("/app/about");
    expect(pageDataPath("/app", "/app/")).toBe("/app/_root.data");
    expect(pageDataPath("/app/about", "/app")).toBe("/app/about.data");
  });

  test("the page a path is about: a document's own, page data's page", () => {
    expect(pageOfPath("/messages/latest.data")).toBe("/messages/latest");
    expect(pageOfPath("/_root.data")).toBe("/");
    expect(pageOfPath("/messages/latest/")).toBe("/messages/latest");
    expect(pageOfPath("/")).toBe("/");
  });

  test.each([
    ["/items/ams.data?_routes=root,routes/item", ["root", "routes/item"]],
    ["/items/ams.data?_routes=root,", ["root", ""]],
    ["/items/ams.data?_routes=", undefined],
    ["/items/ams.data", undefined],
    ["/items/ams?_routes=root", undefined],
  ])("%s names routes %j", (path, ids) => {
    expect(requestedRouteIds(new URL(path, "https://app.example"))).toEqual(ids);
  });

  test.each([
    ["/items?page=2", undefined, "/items.data?page=2"],
    ["/items?index&page=2#top", undefined, "/items.data?page=2"],
    ["/items?index=x", undefined, "/items.data?index=x"],
    ["/items/ams?q=a%20b", undefined, "/items/ams.data?q=a+b"],
    ["/", ["root"], "/_root.data?_routes=root"],
    ["/items/ams?q=1", ["root", "routes/item"], "/items/ams.data?q=1&_routes=root%2Croutes%2Fitem"],
  ] as const)("the data of %s, routes %j, is fetched from %s", (page, routeIds, url) => {
    expect(pageDataUrl(new URL(page, "https://app.example"), routeIds)).toBe(url);
  });
});
