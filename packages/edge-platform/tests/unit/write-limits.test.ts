import { describe, expect, test } from "vitest";
import { retryAfterSeconds } from "../../src/limits/rate-limit";
import { isWriteLimited, writeLimitedMessage } from "../../src/limits/write-limited";
import { writeLimitBinding } from "../../src/limits/write-limits.server";

describe("writeLimitBinding (a route's `writeLimit` export)", () => {
  test("without the export, writes count against the platform's binding", () => {
    expect(writeLimitBinding("routes/a", undefined)).toBe("WRITE_RATE_LIMIT");
  });

  test('"off" leaves the route\'s writes to the route', () => {
    expect(writeLimitBinding("routes/a", "off")).toBeUndefined();
  });

  test("a binding of its own", () => {
    expect(writeLimitBinding("routes/a", { binding: "SIGNUP_RATE_LIMIT" })).toBe("SIGNUP_RATE_LIMIT");
  });

  test.each([
    ["Off"],
    [false],
    [null],
    [10],
    [{}],
    [{ binding: "" }],
    [{ binding: "not a name" }],
    [{ limit: 5 }],
  ])("anything else (%j) stops the Worker, naming the route", (value) => {
    expect(() => writeLimitBinding("routes/signup", value)).toThrow(
      /Route routes\/signup: `writeLimit` must be/,
    );
  });
});

describe("retryAfterSeconds", () => {
  const periods = { WRITE_RATE_LIMIT: 10, MONITORING_RATE_LIMIT: 60 };

  test("is the binding's period", () => {
    expect(retryAfterSeconds("WRITE_RATE_LIMIT", periods)).toBe(10);
    expect(retryAfterSeconds("MONITORING_RATE_LIMIT", periods)).toBe(60);
  });

  test("is the longest possible period for a binding the build did not see", () => {
    expect(retryAfterSeconds("OTHER", periods)).toBe(60);
    expect(retryAfterSeconds("WRITE_RATE_LIMIT", {})).toBe(60);
  });
});

describe("the refusal's data", () => {
  test("is recognised, and says when to send again", () => {
    const refusal = { writeLimited: { retryAfterSeconds: 10, message: writeLimitedMessage(10) }, values: {} };
    expect(isWriteLimited(refusal)).toBe(true);
    expect(refusal.writeLimited.message).toMatch(/send again in 10 seconds/);
    expect(isWriteLimited({ values: {} })).toBe(false);
    expect(isWriteLimited(undefined)).toBe(false);
    expect(isWriteLimited("writeLimited")).toBe(false);
  });
});
