import { data, UNSAFE_ErrorResponseImpl as ErrorResponse, redirect } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { errorDigest } from "../../app/platform/errors/digest";
import { isControlFlow, serverErrorPayload } from "../../app/platform/errors/server-error.server";

function request(init?: RequestInit) {
  return new Request("https://app.example/items/ams?x=1", init);
}

function captureLog() {
  return vi.spyOn(console, "error").mockImplementation(() => {});
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("isControlFlow", () => {
  test.each([
    ["a thrown redirect", redirect("/login")],
    ["a thrown Response", new Response("gone", { status: 410 })],
    ["a thrown data()", data(null, { status: 404 })],
    ["a route error response", new ErrorResponse(404, "Not Found", null)],
  ])("%s is control flow", (_, value) => {
    expect(isControlFlow(value)).toBe(true);
  });

  test.each([
    ["an Error", new Error("x")],
    ["a string", "x"],
    ["a plain object", { status: 302 }],
  ])("%s is a failure", (_, value) => {
    expect(isControlFlow(value)).toBe(false);
  });
});

describe("serverErrorPayload", () => {
  test("carries only the digest of the error", () => {
    captureLog();
    const error = new Error("secret-token");
    expect(serverErrorPayload(error, request())).toEqual({ digest: errorDigest(error) });
  });

  test("logs one structured line with the digest, method and path (no query string)", () => {
    const log = captureLog();
    const error = new Error("boom");
    serverErrorPayload(error, request({ method: "POST" }));
    expect(log).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(log.mock.calls[0]?.[0]));
    expect(line).toMatchObject({
      level: "error",
      event: "server_error",
      digest: errorDigest(error),
      method: "POST",
      path: "/items/ams",
      error: { name: "Error", message: "boom" },
    });
  });

  test("logs an error seen twice (render hook, then handleError) only once", () => {
    const log = captureLog();
    const error = new Error("twice");
    serverErrorPayload(error, request());
    serverErrorPayload(error, request());
    expect(log).toHaveBeenCalledTimes(1);
  });

  test("leaves control flow alone and logs nothing", () => {
    const log = captureLog();
    expect(serverErrorPayload(redirect("/"), request())).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  test("ignores errors of requests the client already aborted", () => {
    const log = captureLog();
    const controller = new AbortController();
    controller.abort();
    expect(serverErrorPayload(new Error("aborted"), request({ signal: controller.signal }))).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });
});
