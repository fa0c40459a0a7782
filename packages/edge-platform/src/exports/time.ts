/**
 * `edge-platform/time`: dates and times in the visitor's language and zone, with no hydration mismatch
 * (docs/i18n.md). An entry point of its own, so only the pages that show a date load it, not every first load.
 */
export { formatDateTime, formatRelativeTime, type Instant } from "../visitor/format.ts";
export { DateTime, type DateTimeProps, RelativeTime, type RelativeTimeProps } from "../visitor/time.tsx";
