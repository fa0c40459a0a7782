import { memoize } from "./memo.ts";

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
  return dateTimeFormat(JSON.stringify([locale, timeZone, options])).format(toDate(instant));
}

/** A formatter per locale, zone and options, made once: making one costs about 130 µs, using it 2. */
const dateTimeFormat = memoize(256, (key) => {
  const [locale, timeZone, options] = JSON.parse(key) as [string, string, Intl.DateTimeFormatOptions];
  return new Intl.DateTimeFormat(locale, { ...options, timeZone });
});

const relativeTimeFormat = memoize(64, (locale) => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }));

/** `3 minutes ago`, `yesterday`, `in 2 hours`: the largest unit that fits, rounded toward zero. */
export function formatRelativeTime(instant: Instant, now: Instant, locale: string): string {
  const seconds = Math.trunc((toDate(instant).getTime() - toDate(now).getTime()) / 1000);
  const format = relativeTimeFormat(locale);
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
