import { describe, expect, test } from "vitest";
import { combineHeaders } from "../../src/http/combine-headers.ts";

describe("combineHeaders", () => {
  test("keeps every Set-Cookie of every source as its own header", () => {
    const session = new Headers({ "Set-Cookie": "bookmark=a; Path=/; HttpOnly" });
    const other = new Headers();
    other.append("Set-Cookie", "flash=b; Path=/");
    other.append("Set-Cookie", "theme=dark; Path=/");
    expect(combineHeaders(session, other).getSetCookie()).toEqual([
      "bookmark=a; Path=/; HttpOnly",
      "flash=b; Path=/",
      "theme=dark; Path=/",
    ]);
  });

  test("appends other headers in order, from Headers, records and pairs, skipping nothing given", () => {
    const headers = combineHeaders(
      { Vary: "Cookie" },
      undefined,
      [["Vary", "Accept"]],
      new Headers({ "Cache-Control": "private, no-store" }),
      null,
    );
    expect(headers.get("Vary")).toBe("Cookie, Accept");
    expect(headers.get("Cache-Control")).toBe("private, no-store");
  });

  test("gives an empty answer for no sources", () => {
    expect([...combineHeaders().keys()]).toEqual([]);
  });
});
