import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { SEGMENT_NAME_SOURCE } from "../../src/reporting/sentry-attributes";

// The attribute key the platform writes is the one each SDK's core reads (Sentry's conventions package, which
// neither SDK re-exports): the Worker's (@sentry/cloudflare) and the browser's (@sentry/react) each resolve
// their own copy.
const require = createRequire(import.meta.url);

test.each(["@sentry/cloudflare", "@sentry/react"])(
  "%s's core reads a transaction name's source from the key the platform writes",
  (sdk) => {
    const core = createRequire(require.resolve(sdk)).resolve("@sentry/core");
    const conventions = createRequire(core)("@sentry/conventions/attributes") as Record<string, string>;
    expect(conventions.SENTRY_SEGMENT_NAME_SOURCE).toBe(SEGMENT_NAME_SOURCE);
  },
);
