import { expect, test } from "vitest";
import { withHeaderChanges } from "../../src/http/response-headers";

test("a response whose headers may change is changed in place: no copy of its body or headers", async () => {
  const response = new Response("body", { headers: { "Cache-Tag": "items", "Content-Type": "text/plain" } });
  const changed = withHeaderChanges(response, [
    ["Retry-After", "10"],
    ["Cache-Tag", null],
  ]);
  expect(changed).toBe(response);
  expect(changed.headers.get("Retry-After")).toBe("10");
  expect(changed.headers.has("Cache-Tag")).toBe(false);
  expect(await changed.text()).toBe("body");
});

test("a response with immutable headers (Response.redirect) is copied, and the copy is changed", () => {
  const redirect = Response.redirect("https://app.example/about", 308);
  const changed = withHeaderChanges(redirect, [["Cache-Control", "private, no-store"]]);
  expect(changed).not.toBe(redirect);
  expect(changed.status).toBe(308);
  expect(changed.headers.get("Location")).toBe("https://app.example/about");
  expect(changed.headers.get("Cache-Control")).toBe("private, no-store");
  expect(redirect.headers.has("Cache-Control")).toBe(false);
});

test("an invalid header name still throws: the copy fails the same way", () => {
  expect(() => withHeaderChanges(new Response(null), [["Bad Name", "x"]])).toThrow(TypeError);
});
