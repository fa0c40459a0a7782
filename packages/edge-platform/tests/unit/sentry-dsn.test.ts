import { describe, expect, test } from "vitest";
import {
  canonicalDsn,
  envelopeUrl,
  isSameDsn,
  isSameTunnelQuery,
  loopbackOrigin,
  parseSentryIngestDsn,
  tunnelQuery,
} from "../../src/reporting/sentry-dsn";

const KEY = "0123456789abcdef0123456789abcdef";

describe("parseSentryIngestDsn", () => {
  test("reads a global ingest DSN", () => {
    expect(parseSentryIngestDsn(`https://${KEY}@o123.ingest.sentry.io/456`)).toEqual({
      publicKey: KEY,
      orgId: "123",
      projectId: "456",
      region: undefined,
    });
  });

  test("reads a regional ingest DSN", () => {
    expect(parseSentryIngestDsn(`https://${KEY}@o123.ingest.de.sentry.io/456`)?.region).toBe("de");
  });

  test.each([
    ["no DSN", undefined],
    ["an empty DSN", ""],
    ["not a URL", "sentry"],
    ["a self-hosted host", `https://${KEY}@sentry.example.com/456`],
    ["a look-alike host", `https://${KEY}@o123.ingest.sentry.io.evil.example/456`],
    ["a host without the org", `https://${KEY}@ingest.sentry.io/456`],
    ["plain http", `http://${KEY}@o123.ingest.sentry.io/456`],
    ["a port", `https://${KEY}@o123.ingest.sentry.io:8443/456`],
    ["a secret key", `https://${KEY}:secret@o123.ingest.sentry.io/456`],
    ["no key", "https://o123.ingest.sentry.io/456"],
    ["a path prefix", `https://${KEY}@o123.ingest.sentry.io/prefix/456`],
    ["a non-numeric project", `https://${KEY}@o123.ingest.sentry.io/abc`],
    ["a query", `https://${KEY}@o123.ingest.sentry.io/456?x=1`],
  ])("is not a Sentry ingest DSN: %s", (_, dsn) => {
    expect(parseSentryIngestDsn(dsn)).toBeUndefined();
  });
});

describe("DSN comparison", () => {
  const configured = parseSentryIngestDsn(`https://${KEY}@o123.ingest.us.sentry.io/456/`);

  test("ignores a trailing slash and the case of the host", () => {
    if (!configured) throw new Error("unparsed");
    expect(canonicalDsn(configured)).toBe(`https://${KEY}@o123.ingest.us.sentry.io/456`);
    expect(isSameDsn(`https://${KEY}@O123.INGEST.US.SENTRY.IO/456`, configured)).toBe(true);
  });

  test.each([
    ["another key", `https://${"f".repeat(32)}@o123.ingest.us.sentry.io/456`],
    ["another region", `https://${KEY}@o123.ingest.de.sentry.io/456`],
    ["the global host", `https://${KEY}@o123.ingest.sentry.io/456`],
    ["not a string", 456],
  ])("refuses %s", (_, candidate) => {
    if (!configured) throw new Error("unparsed");
    expect(isSameDsn(candidate, configured)).toBe(false);
  });
});

describe("the tunnel query", () => {
  const regional = parseSentryIngestDsn(`https://${KEY}@o123.ingest.us.sentry.io/456`);
  const global = parseSentryIngestDsn(`https://${KEY}@o123.ingest.sentry.io/456`);

  test("names org, project and region, and matches itself", () => {
    if (!regional || !global) throw new Error("unparsed");
    expect(tunnelQuery(regional)).toBe("o=123&p=456&r=us");
    expect(tunnelQuery(global)).toBe("o=123&p=456");
    expect(isSameTunnelQuery(new URLSearchParams(tunnelQuery(regional)), regional)).toBe(true);
    expect(isSameTunnelQuery(new URLSearchParams(tunnelQuery(global)), global)).toBe(true);
  });

  test("a region where the DSN has none does not match", () => {
    if (!global) throw new Error("unparsed");
    expect(isSameTunnelQuery(new URLSearchParams("o=123&p=456&r=us"), global)).toBe(false);
  });
});

describe("envelopeUrl", () => {
  const dsn = parseSentryIngestDsn(`https://${KEY}@o123.ingest.us.sentry.io/456`);

  test("is built from the DSN alone", () => {
    if (!dsn) throw new Error("unparsed");
    expect(envelopeUrl(dsn).href).toBe("https://o123.ingest.us.sentry.io/api/456/envelope/?hsts=0");
  });

  test("can point at a test stand-in", () => {
    if (!dsn) throw new Error("unparsed");
    expect(envelopeUrl(dsn, "http://127.0.0.1:9999").href).toBe(
      "http://127.0.0.1:9999/api/456/envelope/?hsts=0",
    );
  });
});

describe("loopbackOrigin (the test-only ingest override)", () => {
  test.each(["http://127.0.0.1:9999", "http://localhost:9999", "http://[::1]:9999/"])(
    "accepts %s",
    (value) => {
      expect(loopbackOrigin(value)).toBe(new URL(value).origin);
    },
  );

  test.each([
    "",
    undefined,
    "https://127.0.0.1:9999",
    "http://example.com",
    "http://127.0.0.1.example.com",
    "http://10.0.0.1:80",
    "http://127.0.0.1:9999/path",
    "http://user@127.0.0.1:9999",
    "not a url",
  ])("ignores %s", (value) => {
    expect(loopbackOrigin(value)).toBeUndefined();
  });
});
