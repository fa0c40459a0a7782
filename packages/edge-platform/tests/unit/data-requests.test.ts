import { describe, expect, test } from "vitest";
import { unknownRouteIds } from "../../src/worker/data-requests";

const ROUTES = new Set(["root", "routes/home", "routes/item"]);
const ids = (path: string) => unknownRouteIds(new URL(path, "https://app.example"), ROUTES);

describe("unknownRouteIds (_routes must name real routes)", () => {
  test.each([
    ["/items/ams.data?_routes=root,routes/item", []],
    ["/items/ams.data", []],
    ["/items/ams.data?_routes=", []],
    ["/items/ams?_routes=nonexistent", []],
  ])("%s names no unknown route", (path, expected) => {
    expect(ids(path)).toEqual(expected);
  });

  test.each([
    ["/items/ams.data?_routes=nonexistent", ["nonexistent"]],
    ["/items/ams.data?_routes=root,zzz,routes/item,yyy", ["zzz", "yyy"]],
    ["/items/ams.data?_routes=%ZZ", ["%ZZ"]],
    ["/items/ams.data?_routes=root,", [""]],
  ])("%s lists the unknown ids", (path, expected) => {
    expect(ids(path)).toEqual(expected);
  });
});
