import { describe, expect, test } from "vitest";
import { isLoopbackHostname } from "../../src/http/loopback";
import { allowedHostsFrom, isAllowedHost } from "../../src/local-server/allowed-hosts";
import { singleHost } from "../../src/local-server/host-guard";
import { loopbackOrigin } from "../../src/reporting/sentry-dsn";
import { httpsRedirect } from "../../src/worker/https-redirect";

// One definition of "loopback" (packages/edge-platform/src/http/loopback.ts) for every caller: the https redirect,
// the local servers' host check, the test ingest origin and the self-hosted Sentry's plain-http exception.

describe("isLoopbackHostname", () => {
  test.each([
    ["localhost", true],
    ["LOCALHOST", true],
    ["127.0.0.1", true],
    ["[::1]", true],
    ["a.b.localhost", true],
    ["notlocalhost", false],
    ["localhost.example", false],
    ["127.0.0.2", false],
    ["10.0.0.1", false],
    ["::1", false],
  ])("%s is %s", (hostname, loopback) => {
    expect(isLoopbackHostname(hostname)).toBe(loopback);
  });

  test.each(["localhost", "127.0.0.1", "[::1]", "app.localhost"])(
    "%s is loopback to every caller: no https redirect, allowed locally, a test ingest origin",
    (hostname) => {
      expect(httpsRedirect(new URL(`http://${hostname}:8787/`))).toBeUndefined();
      expect(isAllowedHost(hostname, [])).toBe(true);
      expect(loopbackOrigin(`http://${hostname}:9999`)).toBe(`http://${hostname}:9999`);
    },
  );
});

describe("the local server's allowed hosts (LOCAL_ALLOWED_HOSTS)", () => {
  test("a comma-separated list, trimmed and lower-cased", () => {
    expect(allowedHostsFrom(" App.Example, .preview.example ,,")).toEqual([
      "app.example",
      ".preview.example",
    ]);
    expect(allowedHostsFrom(undefined)).toEqual([]);
  });

  test.each([
    ["app.example", true],
    ["preview.example", true],
    ["pr-7.preview.example", true],
    ["www.app.example", false],
    ["evilpreview.example", false],
    ["evil.example", false],
  ])("%s is allowed: %s", (hostname, allowed) => {
    expect(isAllowedHost(hostname, ["app.example", ".preview.example"])).toBe(allowed);
  });
});

describe("singleHost (the guard's reading of the Host header)", () => {
  test.each([
    ["127.0.0.1:8787", "127.0.0.1"],
    ["Localhost", "localhost"],
    ["[::1]:8787", "[::1]"],
    ["app.example", "app.example"],
  ])("%s names %s", (header, hostname) => {
    expect(singleHost(header)).toBe(hostname);
  });

  test.each([
    ["no Host", null],
    ["an empty Host", ""],
    ["two Host headers, joined", "127.0.0.1:8787, evil.example"],
    ["a user part", "evil.example@127.0.0.1"],
    ["a path", "127.0.0.1/x"],
    ["a space", "127.0.0.1 evil.example"],
  ])("%s names none", (_, header) => {
    expect(singleHost(header)).toBeUndefined();
  });
});
