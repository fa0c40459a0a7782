import { describe, expect, test } from "vitest";
import { matchedRouteName, routeName, transactionName } from "../../src/reporting/route-name";

describe("routeName", () => {
  test.each([
    ["/", "/"],
    ["items/:id", "/items/:id"],
    ["/items/:id", "/items/:id"],
    ["glossary/*", "/glossary/*"],
  ])("React Router's pattern %s is named %s", (pattern, name) => {
    expect(routeName(pattern)).toBe(name);
  });
});

describe("transactionName", () => {
  test("is the method and the route, as Sentry's framework SDKs name server transactions", () => {
    expect(transactionName("get", "items/:id")).toBe("GET /items/:id");
    expect(transactionName("POST", "messages")).toBe("POST /messages");
  });
});

describe("matchedRouteName", () => {
  test.each([
    [[undefined], "/"],
    [[undefined, undefined], "/"],
    [[undefined, "items/:id"], "/items/:id"],
    [[undefined, "failures", "loader"], "/failures/loader"],
    [["/", "glossary", ":slug"], "/glossary/:slug"],
  ])("the routes' paths %j are the route %s", (paths, name) => {
    expect(matchedRouteName(paths)).toBe(name);
  });
});
