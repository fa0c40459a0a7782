import { useEffect, useState } from "react";
import { formatDateTime, formatRelativeTime, type Instant, toDate } from "./format";
import { browserTimeZoneWhenIdle } from "./intl-warm-up";
import { browserTimeZone, useHydrated, useVisitor } from "./use-visitor";

/**
 * Dates and times in the visitor's language and time zone, the same text at the edge and in the browser
 * (packages/edge-platform/docs/i18n.md): both format with `Intl`, the locale and zone the document was
 * rendered for (useVisitor) and, for relative times, the instant it was rendered. What only the browser
 * can know (its own zone on a shared page, the time now) replaces the server's text after hydration, never
 * during it, so React never finds a mismatch.
 */

/**
 * The browser's first `Intl.DateTimeFormat` sets up its time-zone data: 150-250 ms of a phone's CPU (Chromium's
 * 4x slowdown), 40 ms of a desktop's. This module is loaded by the pages that show a date, and ahead of them
 * when a link to one is prefetched: once, when the browser is idle, it has a worker do that set-up
 * (intl-warm-up.ts, zone-worker.ts), so that neither a tap on such a link, in the new page's render, nor a tap
 * while the set-up runs waits for it (docs/navigation.md, "A tap before the page is ready"). A tap that comes
 * before this module is loaded starts the set-up itself (navigation-install.ts, `codeForNavigation`).
 */
if (typeof document !== "undefined") void browserTimeZoneWhenIdle();

/** The zone a shared page's times are shown in until the browser shows its own. */
const SHARED_PAGE_TIME_ZONE = "UTC";

export type DateTimeProps = {
  instant: Instant;
  /** `Intl.DateTimeFormat` options (its `timeZone` is the visitor's); medium date and short time by default. */
  options?: Intl.DateTimeFormatOptions;
  className?: string;
};

/**
 * `<time datetime>` with the instant in the visitor's language and zone. On a shared page (one copy for
 * every zone) it shows UTC, named, until hydrated, then the browser's own zone.
 */
export function DateTime({ instant, options, className }: DateTimeProps) {
  const { locale, timeZone } = useVisitor();
  const hydrated = useHydrated();
  const zone = timeZone ?? (hydrated ? browserTimeZone() : undefined) ?? SHARED_PAGE_TIME_ZONE;
  const shownOptions =
    timeZone === null && !hydrated ? { ...options, timeZoneName: "short" as const } : options;
  return (
    <time dateTime={toDate(instant).toISOString()} className={className}>
      {formatDateTime(instant, { locale, timeZone: zone }, shownOptions)}
    </time>
  );
}

/** A relative time's title: the absolute instant, with its zone named. */
const WITH_ZONE_NAME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

export type RelativeTimeProps = {
  instant: Instant;
  className?: string;
};

/**
 * `<time datetime>` saying how long ago (or ahead) the instant is, in the visitor's language, with the
 * absolute date and time as its title. Counted from when the document was rendered until hydrated, then
 * from the browser's clock, updated every minute.
 */
export function RelativeTime({ instant, className }: RelativeTimeProps) {
  const { locale, timeZone, renderedAt } = useVisitor();
  const hydrated = useHydrated();
  const now = useNow(hydrated);
  const from = hydrated ? now : (renderedAt ?? undefined);
  const zone = timeZone ?? (hydrated ? browserTimeZone() : undefined) ?? SHARED_PAGE_TIME_ZONE;
  const absolute = formatDateTime(instant, { locale, timeZone: zone }, WITH_ZONE_NAME);
  return (
    <time dateTime={toDate(instant).toISOString()} title={absolute} className={className}>
      {from === undefined ? absolute : formatRelativeTime(instant, from, locale)}
    </time>
  );
}

/** The browser's clock, read after hydration and every minute after. */
function useNow(hydrated: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!hydrated) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, [hydrated]);
  return now;
}
