import { index, prefix, route } from "@react-router/dev/routes";
import { describe, expect, test } from "vitest";
import { routingRulesMatcher } from "../../src/routing-rules";
import { LOCALE_COPIES_ROUTING_RULE, localeCopyPath } from "../../src/visitor/locale-copies";
import type { AppUnderBuild } from "../../src/vite/app-under-build";
import { workerConfig } from "../../src/vite/cloudflare-options";
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

describe("workerConfig (the pages' other-language copies have no address of their own: docs/i18n.md)", () => {
  const app = (locales: string[], pages: string[]): AppUnderBuild => ({
    appDirectory: "app",
    routes,
    STATIC_PAGES: pages,
    EXTRA_ACTION_ORIGINS: [],
    localeSettings: { locales, defaultLocale: locales[0] ?? "en", defaultTimeZone: "UTC" },
  });

  test("several locales and a static page: one more rule, for the copies' directory", () => {
    expect(workerConfig(app(["en", "ar"], ["/about"])).assets.run_worker_first).toEqual([
      "/about",
      LOCALE_COPIES_ROUTING_RULE,
    ]);
    expect(routingRulesMatcher([LOCALE_COPIES_ROUTING_RULE])(localeCopyPath("/about", "ar"))).toBe(true);
    expect(localeCopyPath("/", "ar")).toBe("/__locales/ar");
  });

  test("one locale, or no static page: no copies, no rule", () => {
    expect(workerConfig(app(["en"], ["/about"])).assets.run_worker_first).toEqual(["/about"]);
    expect(workerConfig(app(["en", "ar"], [])).assets.run_worker_first).toEqual([]);
  });

  test("the copies' rule counts against Cloudflare's limit of 100", () => {
    const many = Array.from({ length: 100 }, (_, n) => route(`r${n}`, `routes/r${n}.tsx`));
    const pages = many.map((_, n) => `/r${n}`);
    const config = (locales: string[]) => ({ ...app(locales, pages), routes: many });
    expect(workerConfig(config(["en"])).assets.run_worker_first).toHaveLength(100);
    expect(() => workerConfig(config(["en", "ar"]))).toThrow(/exceed Cloudflare's limit of 100/);
  });
});
