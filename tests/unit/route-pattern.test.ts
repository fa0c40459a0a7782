import { describe, expect, test } from "vitest";
import { routePattern } from "../../app/platform/monitoring/route-pattern";

describe("routePattern", () => {
  test.each([
    ["/", {}, "/"],
    ["/about", {}, "/about"],
    ["/items/ams", { id: "ams" }, "/items/:id"],
    ["/items/items", { id: "items" }, "/items/:id"],
    ["/teams/7/members/7", { team: "7", member: "7" }, "/teams/:team/members/:member"],
    ["/files/a/b/c.txt", { "*": "a/b/c.txt" }, "/files/*"],
    ["/users/ana/files/x/y", { user: "ana", "*": "x/y" }, "/users/:user/files/*"],
    ["/search/caf%C3%A9", { q: "café" }, "/search/:q"],
    ["/bad/%E0%A4%A", { x: "%E0%A4%A" }, "/bad/:x"],
    ["/items/ams/", { id: "ams" }, "/items/:id"],
  ])("%s with %o is %s", (pathname, params, expected) => {
    expect(routePattern(pathname, params)).toBe(expected);
  });
});
