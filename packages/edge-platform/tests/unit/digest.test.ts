import { describe, expect, test } from "vitest";
import { errorDigest } from "../../src/errors/digest";

describe("errorDigest", () => {
  test("is a short opaque id of lowercase base-36 characters", () => {
    expect(errorDigest(new Error("boom"))).toMatch(/^[0-9a-z]{13}$/);
  });

  test("is the same for the same error, so repeated failures group under one id", () => {
    const error = new Error("database unreachable");
    expect(errorDigest(error)).toBe(errorDigest(error));
  });

  test("differs when the message differs", () => {
    const a = new Error("one");
    const b = new Error("two");
    b.stack = a.stack?.replace("one", "two");
    expect(errorDigest(a)).not.toBe(errorDigest(b));
  });

  test("differs when the place it was thrown differs", () => {
    const a = new Error("same");
    const b = new Error("same");
    a.stack = "Error: same\n    at first (app.js:1:1)";
    b.stack = "Error: same\n    at second (app.js:2:1)";
    expect(errorDigest(a)).not.toBe(errorDigest(b));
  });

  test("is the same whatever called the place it was thrown (a traced request's wrappers, a document or its data)", () => {
    const untraced = new Error("same");
    const traced = new Error("same");
    untraced.stack = "Error: same\n    at loader (app.js:1:1)\n    at callRouteHandler (router.js:5:1)";
    traced.stack =
      "Error: same\n    at loader (app.js:1:1)\n    at wrapped (sentry.js:9:9)\n    at callRouteHandler (router.js:5:1)";
    expect(errorDigest(traced)).toBe(errorDigest(untraced));
  });

  test("reveals nothing of the message", () => {
    expect(errorDigest(new Error("secret-token"))).not.toContain("secret");
  });

  test("accepts thrown values that are not errors, including unserializable ones", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const value of ["text", 42, null, undefined, { code: 1 }, circular, Symbol("s")]) {
      expect(errorDigest(value)).toMatch(/^[0-9a-z]{13}$/);
    }
    expect(errorDigest("a")).not.toBe(errorDigest("b"));
  });
});
