import { formatDateTime } from "./format";
import { browserTimeZone, documentVisitor, whenIdle } from "./use-visitor";
import { zoneOffMainThread } from "./zone-worker";

let setUp = false;

/**
 * The zone the browser shows times in, asked once per page, when the browser is idle, by a worker
 * (zone-worker.ts): by the dates-and-times entry (time.tsx) as it loads, so that the page's first format on the
 * main thread is quick; then the main thread's own part (below).
 */
export function browserTimeZoneWhenIdle(): Promise<string | undefined> {
  const asked = zoneOffMainThread();
  if (!setUp) {
    setUp = true;
    void asked.then(() => whenIdle(setUpDateFormats));
  }
  return asked;
}

/**
 * Once the worker has set up the zone data, the main thread's own part, when idle: the document's language's
 * date data and the zone its dates are shown in. The first `Intl.DateTimeFormat` of a language on a page's
 * main thread took 4-5 ms of a phone's CPU (Chromium's 4x slowdown, 2026-11-30), another of the same language
 * 1-2 ms, and asking the browser's zone 1.5 ms: the first render of a date after a tap paid all three, the
 * default format's set up here is reused as it is (format.ts), and the zone is asked once per document.
 */
function setUpDateFormats(): void {
  const { locale, timeZone } = documentVisitor();
  formatDateTime(0, { locale, timeZone: timeZone ?? browserTimeZone() ?? "UTC" });
}
