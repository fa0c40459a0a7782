import { index, prefix, route } from "@react-router/dev/routes";
import { describe, expect, test } from "vitest";
import { staticRouteIds } from "../../app/platform/static-routes";

// A route config of the shape app/routes.ts has, independent of the product's routes.
const routes = [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("terms/:slug", "routes/term.tsx"),
  ...prefix("docs", [index("routes/docs-index.tsx"), route("*", "routes/docs-page.tsx")]),
  route("now", "routes/now.tsx", { id: "live-clock" }),
];

describe("staticRouteIds (the browser learns C5's static per route, not per page)", () => {
  test("maps each pre-rendered path to the deepest route it matches, once per route", () => {
    expect(
      staticRouteIds(routes, ["/", "/about", "/terms/edge", "/terms/worker", "/docs", "/docs/a/b", "/now"]),
    ).toEqual([
      "live-clock",
      "routes/about",
      "routes/docs-index",
      "routes/docs-page",
      "routes/home",
      "routes/term",
    ]);
  });

  test("grows with routes, not pages: 10,000 pages of one route are one entry", () => {
    const pages = Array.from({ length: 10_000 }, (_, n) => `/terms/t${n}`);
    expect(staticRouteIds(routes, pages)).toEqual(["routes/term"]);
  });

  test("a static path that matches no route fails the build", () => {
    expect(() => staticRouteIds([route("about", "routes/about.tsx")], ["/missing"])).toThrow(
      /\/missing matches no route/,
    );
  });
});
