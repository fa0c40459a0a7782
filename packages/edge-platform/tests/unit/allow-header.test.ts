import { describe, expect, test } from "vitest";
import { missingAllowHeader } from "../../src/http/allow";

describe("missingAllowHeader (a 405 says what is allowed)", () => {
  test("React Router's own 405 (a method it does not handle) gets the methods every page answers", () => {
    expect(missingAllowHeader(405, new Headers())).toEqual({ Allow: "GET, HEAD" });
  });

  test("a route's own Allow is kept, and other statuses get none", () => {
    expect(missingAllowHeader(405, new Headers({ Allow: "POST" }))).toEqual({});
    expect(missingAllowHeader(404, new Headers())).toEqual({});
  });
});
