import { renderToStaticMarkup } from "react-dom/server";
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  CLIENT_ERROR_MESSAGE,
  ErrorPage,
  errorMeta,
  SERVER_ERROR_MESSAGE,
} from "../../src/errors/error-page";

function textOf(error: unknown): string {
  const html = renderToStaticMarkup(<ErrorPage error={error} />);
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "\n")
    .replace(/&#x27;/g, "'")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("ErrorPage", () => {
  test("a server error shows the packages/edge-platform/docs/contract.md C1 sentence, then its digest", () => {
    const error = new ErrorResponse(500, "", { digest: "0abc123def456" });
    expect(textOf(error)).toBe(`${SERVER_ERROR_MESSAGE}\nDigest: 0abc123def456`);
  });

  test("a client error in production shows the packages/edge-platform/docs/contract.md C1 client sentence only: no digest, no stack", () => {
    vi.stubEnv("DEV", false);
    expect(textOf(new Error("render failed"))).toBe(CLIENT_ERROR_MESSAGE);
  });

  test("a client error in development also shows its stack", () => {
    vi.stubEnv("DEV", true);
    expect(textOf(new Error("render failed"))).toContain("Error: render failed");
  });

  test("the sentences are word for word those of packages/edge-platform/docs/contract.md C1", () => {
    expect(SERVER_ERROR_MESSAGE).toBe(
      "Application error: a server-side exception has occurred (see the server logs for more information).",
    );
    expect(CLIENT_ERROR_MESSAGE).toBe(
      "Application error: a client-side exception has occurred (see the browser console for more information).",
    );
  });

  test("a 404 is a not-found page, never the application-error page", () => {
    const text = textOf(new ErrorResponse(404, "Not Found", null));
    expect(text).toBe("404\nThis page could not be found.");
  });

  test("a 5xx without a digest (thrown on purpose with data()) is an HTTP error page with its message", () => {
    expect(textOf(new ErrorResponse(503, "Service Unavailable", "Back in five minutes."))).toBe(
      "503\nBack in five minutes.",
    );
  });

  test("an HTTP error without a message shows its status text", () => {
    expect(textOf(new ErrorResponse(413, "Payload Too Large", null))).toBe("413\nPayload Too Large");
  });

  test("a 405 is a plain Method Not Allowed page: React Router's developer message names no route here", () => {
    const message =
      'Error: You made a PATCH request to "/now" but did not provide an `action` for route "routes/now", so there is no way to handle the request.';
    const error = new ErrorResponse(405, "Method Not Allowed", message);
    const text = textOf(error);
    expect(text).toBe("405\nMethod Not Allowed: this page does not accept that kind of request.");
    expect(errorMeta(error)).toEqual([
      { title: "405: Method Not Allowed" },
      { name: "description", content: "Method Not Allowed: this page does not accept that kind of request." },
    ]);
  });

  test("a 404's title and description name nothing of the URL", () => {
    const error = new ErrorResponse(404, "Not Found", 'Error: No route matches URL "/nope"');
    expect(errorMeta(error)).toEqual([
      { title: "404: Page not found" },
      { name: "description", content: "This page could not be found." },
    ]);
  });
});
