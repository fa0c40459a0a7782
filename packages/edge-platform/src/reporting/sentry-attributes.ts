/**
 * Sentry's attribute for where a transaction's name comes from: "route" groups by it, and a name whose source
 * is "url" is kept out of the trace headers (`baggage`'s `sentry-transaction`). The SDKs read this key (Sentry's
 * conventions, `SENTRY_SEGMENT_NAME_SOURCE`) but do not export it; packages/edge-platform/tests/unit/sentry-attributes.test.ts checks
 * that both SDKs' conventions still name it so.
 */
export const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";
