import { describe, expect, test } from "vitest";
import { missingAllowHeader } from "../../src/http/allow";
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

describe("missingAllowHeader (a 405 says what is allowed)", () => {
  test("React Router's own 405 (a method it does not handle) gets the methods every page answers", () => {
    expect(missingAllowHeader(405, new Headers())).toEqual({ Allow: "GET, HEAD" });
  });

  test("a route's own Allow is kept, and other statuses get none", () => {
    expect(missingAllowHeader(405, new Headers({ Allow: "POST" }))).toEqual({});
    expect(missingAllowHeader(404, new Headers())).toEqual({});
  });
});
