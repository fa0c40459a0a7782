import { describe, expect, test } from "vitest";
import { isTracedRequest, untracedTraceHeader } from "../../src/reporting/server-sentry.server";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7";

describe("isTracedRequest", () => {
  test("follows the sampled flag of the browser's sentry-trace header", () => {
    expect(isTracedRequest(`${TRACE}-1`, 0, 0.5)).toBe(true);
    expect(isTracedRequest(`${TRACE}-0`, 1, 0.5)).toBe(false);
  });

  test("draws at the configured rate without a decision in the header", () => {
    expect(isTracedRequest(null, 0.1, 0.05)).toBe(true);
    expect(isTracedRequest(null, 0.1, 0.5)).toBe(false);
    expect(isTracedRequest(TRACE, 0.1, 0.5)).toBe(false);
    expect(isTracedRequest(null, 0, 0)).toBe(false);
    expect(isTracedRequest(null, 1, 0.999)).toBe(true);
  });

  test("ignores a malformed header", () => {
    expect(isTracedRequest("zzz-1", 0, 0.5)).toBe(false);
    expect(isTracedRequest(`${TRACE}-1-extra`, 0, 0.5)).toBe(false);
  });
});

describe("untracedTraceHeader", () => {
  test("keeps the incoming trace and span, marked not sampled", () => {
    expect(untracedTraceHeader(`${TRACE}-1`)).toBe(`${TRACE}-0`);
    expect(untracedTraceHeader(TRACE)).toBe(`${TRACE}-0`);
  });

  test("starts a fresh trace, not sampled, when there is none", () => {
    const header = untracedTraceHeader(null);
    expect(header).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}-0$/);
    expect(untracedTraceHeader(null)).not.toBe(header);
  });
});
