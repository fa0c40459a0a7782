import { describe, expect, test } from "vitest";
import { parseEnvelopeHeader } from "../../src/worker/monitoring-tunnel";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("parseEnvelopeHeader", () => {
  test("reads the first line as a JSON object", () => {
    expect(parseEnvelopeHeader(bytes('{"dsn":"x","event_id":"1"}\n{"type":"event"}\n{}'))).toEqual({
      dsn: "x",
      event_id: "1",
    });
  });

  test("accepts an envelope that is only a header", () => {
    expect(parseEnvelopeHeader(bytes('{"dsn":"x"}'))).toEqual({ dsn: "x" });
  });

  test("does not look past the first line (binary items follow)", () => {
    expect(parseEnvelopeHeader(bytes('{"dsn":"x"}\n', [0xff, 0x00, 0xfe]))).toEqual({ dsn: "x" });
  });

  test.each([
    ["empty", bytes("")],
    ["not JSON", bytes("dsn=x\n{}")],
    ["a JSON array", bytes("[]\n")],
    ["a JSON string", bytes('"x"\n')],
    ["null", bytes("null\n")],
    ["invalid UTF-8", bytes('{"dsn":"', [0xc3, 0x28], '"}')],
    ["preceded by a UTF-8 byte-order mark", bytes([0xef, 0xbb, 0xbf], '{"dsn":"x"}\n{}')],
  ])("refuses a header that is %s", (_, body) => {
    expect(parseEnvelopeHeader(body)).toBeUndefined();
  });
});
