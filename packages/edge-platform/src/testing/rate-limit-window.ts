/**
 * Waits, if need be, for a fresh window of a Rate Limiting binding's period, so that a burst of requests
 * taking up to `burstMs` is counted in one window. Locally (Miniflare) a binding counts in windows aligned
 * to the clock (the current one is `Date.now() / period`); a burst across two would be counted in both
 * and let more than `limit` through. On Cloudflare, windows are the service's own business.
 */
export async function inOneWindow(periodSeconds: number, burstMs: number): Promise<void> {
  const periodMs = periodSeconds * 1000;
  const left = periodMs - (Date.now() % periodMs);
  if (left < burstMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
