import { describe, expect, test } from "vitest";
import { hasRepeatedKey } from "../../src/http/json-keys";
import { parseEnvelopeHeader } from "../../src/worker/monitoring-tunnel";

describe("hasRepeatedKey", () => {
  test.each([
    ['{"dsn":"a","dsn":"b"}', true],
    ['{"dsn":"a","\\u0064sn":"b"}', true],
    ['{ "event_id" : "1" , "event_id":"2" }', true],
    ['{"trace":{"public_key":"a","public_key":"b"}}', true],
    ['{"a":[{"k":1,"k":2}]}', true],
    ['{"dsn":"a","sdk":{"dsn":"b"}}', false],
    ['{"a":{"k":1},"b":{"k":2}}', false],
    ['{"a":["dsn","dsn"]}', false],
    ['{"a":"x\\":\\"y","a\\"":1}', false],
    ['{"a":"x\\\\","b":"\\\\"}', false],
    ["{}", false],
    ['[{"a":1},{"a":1}]', false],
  ])("%s: %s", (text, repeated) => {
    JSON.parse(text);
    expect(hasRepeatedKey(text)).toBe(repeated);
  });
});

describe("parseEnvelopeHeader refuses a header that repeats a key", () => {
  test.each([
    '{"dsn":"https://k@o1.ingest.sentry.io/1","dsn":"https://k@o2.ingest.sentry.io/2"}\n{}',
    '{"event_id":"a","event_id":"b","dsn":"x"}',
  ])("%s", (text) => {
    expect(parseEnvelopeHeader(Buffer.from(text))).toBeUndefined();
  });
});
