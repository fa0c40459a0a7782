import { index, prefix, route } from "@react-router/dev/routes";
import { describe, expect, test } from "vitest";
import { routingRulesMatcher } from "../../src/routing-rules";
import { staticPageRoutingRules, staticRouteIds } from "../../src/vite/static-routes";

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

describe("staticPageRoutingRules (decision 010: static pages' HTML goes to the Worker, one rule per route)", () => {
  test("exact paths for literal routes, a glob from the first dynamic segment on", () => {
    expect(
      staticPageRoutingRules(routes, ["/", "/about", "/terms/edge", "/terms/worker", "/docs", "/docs/a/b"]),
    ).toEqual(["/", "/about", "/docs", "/docs/*", "/terms/*"]);
  });

  test("10,000 pages of one route are one rule", () => {
    const pages = Array.from({ length: 10_000 }, (_, n) => `/terms/t${n}`);
    expect(staticPageRoutingRules(routes, pages)).toEqual(["/terms/*"]);
  });

  test("a rule a glob already covers is left out (Cloudflare refuses it)", () => {
    const nested = [
      route("shop/:category", "routes/category.tsx"),
      route("shop/:category/:item", "routes/item.tsx"),
    ];
    expect(staticPageRoutingRules(nested, ["/shop/a", "/shop/a/b"])).toEqual(["/shop/*"]);
  });

  test("more static routes than Cloudflare reads fail the build", () => {
    const many = Array.from({ length: 101 }, (_, n) => route(`p${n}`, `routes/p${n}.tsx`));
    expect(() =>
      staticPageRoutingRules(
        many,
        many.map((_, n) => `/p${n}`),
      ),
    ).toThrow(/limit of 100/);
    expect(
      staticPageRoutingRules(
        many.slice(0, 100),
        many.slice(0, 100).map((_, n) => `/p${n}`),
      ),
    ).toHaveLength(100);
  });

  test("the Worker's test agrees with Cloudflare's globs", () => {
    const isStaticPage = routingRulesMatcher(["/", "/about", "/terms/*"]);
    expect(
      ["/", "/about", "/terms/edge", "/terms/edge.data", "/terms/a/b"].filter(isStaticPage),
    ).toHaveLength(5);
    expect(
      ["/about/", "/about.data", "/now", "/_root.data", "/terms", "/assets/x.js"].some(isStaticPage),
    ).toBe(false);
    expect(routingRulesMatcher(["/*", "!/assets/*"])("/assets/x.js")).toBe(false);
  });
});
