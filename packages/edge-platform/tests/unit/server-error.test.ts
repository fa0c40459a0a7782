import { data, UNSAFE_ErrorResponseImpl as ErrorResponse, redirect } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { isControlFlow } from "../../src/errors/control-flow";
import { errorDigest } from "../../src/errors/digest";
import { recordRejection, recordServerError, serverErrorPayload } from "../../src/errors/server-error.server";
import { requestContext } from "../../src/request-context";
import { requestScope as scope } from "../support/request-scope.ts";

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
    expect(serverErrorPayload(error, scope())).toEqual({ digest: errorDigest(error) });
  });

  test("logs one structured line with the digest, method and path (no query string)", () => {
    const log = captureLog();
    const error = new Error("boom");
    serverErrorPayload(error, scope({ method: "POST" }));
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

  test("logs an error seen twice in one request (render hook, then handleError) only once", () => {
    const log = captureLog();
    const error = new Error("twice");
    const request = scope();
    serverErrorPayload(error, request);
    serverErrorPayload(error, request);
    expect(log).toHaveBeenCalledTimes(1);
  });

  test("logs and reports the same error object once for each request it breaks", () => {
    const log = captureLog();
    const reported: string[] = [];
    const shared = new Error("a cached failure");
    for (let i = 0; i < 3; i++)
      serverErrorPayload(
        shared,
        scope({}, (_, { digest }) => reported.push(digest)),
      );
    expect(log).toHaveBeenCalledTimes(3);
    expect(reported).toEqual([errorDigest(shared), errorDigest(shared), errorDigest(shared)]);
  });

  test("leaves control flow alone and logs nothing", () => {
    const log = captureLog();
    expect(serverErrorPayload(redirect("/"), scope())).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  test("ignores errors of requests the client already aborted", () => {
    const log = captureLog();
    const controller = new AbortController();
    controller.abort();
    expect(serverErrorPayload(new Error("aborted"), scope({ signal: controller.signal }))).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });
});

describe("recordServerError", () => {
  test("names the route the request matched once a route handler set it", () => {
    const log = captureLog();
    const request = scope();
    request.context.get(requestContext).errors.route = "/items/:id";
    recordServerError(new Error("x"), request);
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({ route: "/items/:id" });
  });
});

describe("recordRejection", () => {
  test("records a promise's rejection and leaves the promise rejected", async () => {
    const log = captureLog();
    const error = new Error("streamed");
    const promise = Promise.reject(error);
    recordRejection(promise, scope());
    await expect(promise).rejects.toBe(error);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({ digest: errorDigest(error) });
  });

  test("records nothing for a promise that rejects with control flow", async () => {
    const log = captureLog();
    const promise = Promise.reject(redirect("/"));
    recordRejection(promise, scope());
    await promise.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).not.toHaveBeenCalled();
  });
});
