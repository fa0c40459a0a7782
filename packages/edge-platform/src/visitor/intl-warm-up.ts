import { formatDateTime } from "./format";
import { browserTimeZone, documentVisitor, whenIdle, zoneAskedOffMainThread } from "./use-visitor";

/**
 * The browser's zone, asked off the main thread. The first `Intl.DateTimeFormat` of a page's process sets up
 * the browser's time-zone and date data (ICU's): 125-212 ms of a phone's main thread (Chromium's 4x slowdown),
 * 40 ms of a desktop's, which a tap would wait for. Those caches are the renderer process's, shared by its
 * threads, so a short-lived worker that asks for the zone sets them up for the page: measured at 4x
 * (2026-11-29), the main thread's first format after it took 3-12 ms (another locale or zone afterwards costs
 * milliseconds, not the set-up again).
 *
 * The worker comes from a Blob: no request, and the document policy allows it (a worker started by an allowed
 * script, under `'strict-dynamic'`; content-security-policy.spec.ts). Where a browser refuses it or has no
 * workers, the main thread asks, as before.
 */
const WORKER_SOURCE = "const f=Intl.DateTimeFormat();f.format();postMessage(f.resolvedOptions().timeZone)";

let asked: Promise<string | undefined> | undefined;

/**
 * The zone the browser shows times in, asked once per page, when the browser is idle, by a worker (above): by
 * the dates-and-times entry (time.tsx) as it loads, so that the page's first format on the main thread is quick,
 * and then by the document's `tz` cookie (use-visitor.ts, `rememberTimeZone`).
 */
export function browserTimeZoneWhenIdle(): Promise<string | undefined> {
  if (asked) return asked;
  asked = new Promise((resolve) =>
    whenIdle(() => {
      try {
        // Kept until the worker answers (revoked at once, its script might not be read yet); if `new Worker`
        // throws, it stays: a few bytes, once.
        const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
        const worker = new Worker(url);
        const answer = (zone: string | undefined) => {
          worker.terminate();
          URL.revokeObjectURL(url);
          resolve(zone);
        };
        worker.onmessage = (event: MessageEvent<string>) => answer(event.data || undefined);
        worker.onerror = () => answer(browserTimeZone());
      } catch {
        resolve(browserTimeZone());
      }
    }),
  );
  zoneAskedOffMainThread(asked);
  void asked.then(() => whenIdle(setUpDateFormats));
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
