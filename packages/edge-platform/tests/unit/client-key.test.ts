import { describe, expect, test } from "vitest";
import { clientKey } from "../../src/limits/client-key";

describe("clientKey", () => {
  test.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
  ])("an IPv4 client %j is counted by its address", (header, key) => {
    expect(clientKey(header)).toBe(key);
  });

  test("every address of one IPv6 /64 is one client", () => {
    const keys = [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:0000:0000:0000:0009",
      "2001:db8:1:2:0:0:1.2.3.4",
    ].map(clientKey);
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1:2::/64"]));
  });

  test("neighbouring /64s and IPv4 addresses are different clients", () => {
    expect(clientKey("2001:db8:1:2::1")).not.toBe(clientKey("2001:db8:1:3::1"));
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("203.0.113.7")).not.toBe(clientKey("203.0.113.8"));
  });

  test.each([
    null,
    "",
    "unknown",
    "203.0.113.256",
    "203.0.113",
    "1.2.3.4, 5.6.7.8",
    "2001:db8::1::2",
    "2001:db8:1:2:3:4:5:6:7",
    "2001:db8:1:2:3:4:5",
    "2001:db8:1:2:3:4:5:6::",
    "2001:db8::12345",
    "2001:db8::1.2.3.999",
  ])("a header that is not one address (%j) counts as the shared unknown client", (header) => {
    expect(clientKey(header)).toBe("unknown");
  });
});
