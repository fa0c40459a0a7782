import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalDsn, isSameDsn, parseSentryIngestDsn } from "../../src/reporting/sentry-dsn";
import { TEST_DSN } from "../../src/testing/ingest-stand-in.ts";
import { parseEnvelopeHeader } from "../../src/worker/monitoring-tunnel";

// Property-based checks  of the tunnel's decisions: thousands of generated inputs each run,
// with fast-check's fixed seed per run printed on failure (replay with `{ seed, path }`).

const RUNS = { numRuns: 5_000 };
const configured = parseSentryIngestDsn(TEST_DSN);
if (!configured) throw new Error("TEST_DSN must be a Sentry ingest DSN");

const encoder = new TextEncoder();
const jsonObject = fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue(), { maxKeys: 8 });

describe("parseEnvelopeHeader", () => {
  test("never throws on arbitrary bytes, and gives a plain object or nothing", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2_048 }), (body) => {
        const header = parseEnvelopeHeader(body);
        if (header !== undefined) {
          expect(typeof header).toBe("object");
          expect(Array.isArray(header)).toBe(false);
        }
      }),
      RUNS,
    );
  });

  test("reads back any JSON object header, whatever bytes follow it", () => {
    fc.assert(
      fc.property(jsonObject, fc.uint8Array({ maxLength: 512 }), (object, items) => {
        const body = new Uint8Array([...encoder.encode(`${JSON.stringify(object)}\n`), ...items]);
        expect(parseEnvelopeHeader(body)).toEqual(JSON.parse(JSON.stringify(object)));
      }),
      RUNS,
    );
  });

  test("a first line that is JSON but not an object is refused", () => {
    const notAnObject = fc.oneof(
      fc.jsonValue().filter((value) => typeof value !== "object"),
      fc.array(fc.jsonValue()),
    );
    fc.assert(
      fc.property(notAnObject, (value) => {
        expect(parseEnvelopeHeader(encoder.encode(`${JSON.stringify(value)}\n{}`))).toBeUndefined();
      }),
      RUNS,
    );
  });
});

describe("isSameDsn (the envelope's DSN must be the configured one)", () => {
  test("an arbitrary string is accepted only if it names the configured key, host and project", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.webUrl(), fc.constant(TEST_DSN)),
        (candidate) => {
          const parsed = parseSentryIngestDsn(candidate);
          expect(isSameDsn(candidate, configured)).toBe(
            parsed !== undefined && canonicalDsn(parsed) === canonicalDsn(configured),
          );
        },
      ),
      RUNS,
    );
  });

  test("any change to the key, the org or the project is refused", () => {
    const { publicKey, projectId } = configured;
    // Where the key, the org id (in the host) and the project id sit in the DSN.
    const spans = [publicKey, "4500000000000001", projectId].map((part) => {
      const start = TEST_DSN.indexOf(part);
      return [start, start + part.length] as const;
    });
    const changed = fc
      .tuple(
        fc.constantFrom(...spans).chain(([start, end]) => fc.integer({ min: start, max: end - 1 })),
        fc.constantFrom(..."0123456789abcdef"),
      )
      .filter(([index, character]) => TEST_DSN[index] !== character)
      .map(([index, character]) => TEST_DSN.slice(0, index) + character + TEST_DSN.slice(index + 1));
    fc.assert(
      fc.property(changed, (candidate) => {
        expect(isSameDsn(candidate, configured)).toBe(false);
      }),
      RUNS,
    );
  });

  test("values that are not strings are refused", () => {
    fc.assert(
      fc.property(
        fc.anything().filter((value) => typeof value !== "string"),
        (value) => {
          expect(isSameDsn(value, configured)).toBe(false);
        },
      ),
      RUNS,
    );
  });
});
