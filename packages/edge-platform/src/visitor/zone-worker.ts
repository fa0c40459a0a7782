import { browserTimeZone, whenIdle, zoneAskedOffMainThread } from "./use-visitor";

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
 *
 * A module of its own, shared by the dates-and-times entry (intl-warm-up.ts) and the navigation code: its chunk's
 * URL (`zoneWorkerModule`) is in the route code of every page that shows a date, which is how a tap tells that
 * its page will need the set-up.
 */
const WORKER_SOURCE = "const f=Intl.DateTimeFormat();f.format();postMessage(f.resolvedOptions().timeZone)";

/** The path of the file this module is in, as React Router's manifest lists a route's imports (browser only). */
export function zoneWorkerModule(): string {
  return new URL(import.meta.url).pathname;
}

let asked: Promise<string | undefined> | undefined;
let start: () => void = () => {};

/**
 * The zone the browser shows times in, asked once per page by a worker (above): when the browser is idle, or at
 * once (`now`: a tap on a link to a page that shows a date, whose set-up then runs during the round trip for the
 * page's code and data instead of in its render). The document's `tz` cookie takes its answer too
 * (use-visitor.ts, `rememberTimeZone`).
 */
export function zoneOffMainThread({ now = false } = {}): Promise<string | undefined> {
  if (!asked) {
    asked = new Promise((resolve) => {
      let started = false;
      start = () => {
        if (started) return;
        started = true;
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
      };
    });
    zoneAskedOffMainThread(asked);
    whenIdle(start);
  }
  if (now) start();
  return asked;
}
