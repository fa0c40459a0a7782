/**
 * Formatting an instant for a visitor with the runtime's `Intl` (no locale data in the bundle: browsers and
 * workerd carry the CLDR's). Pure functions, the same on the server and in the browser; the components
 * around them are time.tsx.
 */

/** An instant as the platform takes it: a `Date`, milliseconds since the epoch, or an ISO 8601 string. */
export type Instant = Date | number | string;

/** Date and time, medium length, with the zone's name: `27 Nov 2026, 23:22 GMT+9`. */
export const DEFAULT_DATE_TIME: Intl.DateTimeFormatOptions = {
  dateStyle: "medium",
  timeStyle: "short",
};

export function formatDateTime(
  instant: Instant,
  { locale, timeZone }: { locale: string; timeZone: string },
  options: Intl.DateTimeFormatOptions = DEFAULT_DATE_TIME,
): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(toDate(instant));
}

/** `3 minutes ago`, `yesterday`, `in 2 hours`: the largest unit that fits, rounded toward zero. */
export function formatRelativeTime(instant: Instant, now: Instant, locale: string): string {
  const seconds = Math.trunc((toDate(instant).getTime() - toDate(now).getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size || unit === "second")
      return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, "second");
}

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** The instant as a `Date`; a value that names no instant is an error, not an Invalid Date. */
export function toDate(instant: Instant): Date {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not an instant: ${String(instant)}`);
  return date;
}
