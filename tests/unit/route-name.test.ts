import { describe, expect, test } from "vitest";
import { routeName, transactionName } from "../../app/platform/monitoring/route-name";

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
