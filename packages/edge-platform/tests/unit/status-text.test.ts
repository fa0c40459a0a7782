import { describe, expect, test } from "vitest";
import { reasonPhrase } from "../../src/http/status-text.server";

describe("reasonPhrase (RFC 9110's texts)", () => {
  test.each([
    [400, "Bad Request"],
    [404, "Not Found"],
    [405, "Method Not Allowed"],
    [409, "Conflict"],
    [413, "Content Too Large"],
    [503, "Service Unavailable"],
  ])("%i is %s", (status, text) => {
    expect(reasonPhrase(status)).toBe(text);
  });

  test("a status without a phrase gets its class", () => {
    expect(reasonPhrase(499)).toBe("Client Error");
    expect(reasonPhrase(599)).toBe("Server Error");
    expect(reasonPhrase(200)).toBe("");
  });
});
