import { describe, expect, test } from "vitest";
import { inertContentType } from "../../src/worker/monitoring-tunnel";

describe("inertContentType: what the tunnel says Sentry's answer is", () => {
  test.each([
    ["application/json", "application/json"],
    ["Application/JSON; charset=utf-8", "application/json"],
    ["text/html", "text/plain; charset=utf-8"],
    ["application/json-seq", "text/plain; charset=utf-8"],
    ["image/svg+xml", "text/plain; charset=utf-8"],
    ["application/xhtml+xml", "text/plain; charset=utf-8"],
    [null, "text/plain; charset=utf-8"],
  ])("%s -> %s", (upstream, kept) => {
    expect(inertContentType(upstream)).toBe(kept);
  });
});
