/**
 * The inline script that collects uncaught errors and unhandled rejections from the first byte of the
 * page until the Sentry SDK (loaded after hydration, when the browser is idle) takes over: nothing is lost.
 * Kept tiny and constant (no per-request data), so it can be allowed by hash as well as by nonce.
 */
export const EARLY_ERRORS_SCRIPT = `(function(w){var q=[];function k(v){if(q.length<20)q.push(v)}
function e(ev){k(ev.error||ev.message)}function r(ev){k(ev.reason)}
w.addEventListener("error",e);w.addEventListener("unhandledrejection",r);
w.__takeEarlyErrors=function(){w.removeEventListener("error",e);w.removeEventListener("unhandledrejection",r);return q.splice(0)}})(window)`;

declare global {
  interface Window {
    __takeEarlyErrors?: () => unknown[];
  }
}

/** Stops the inline collector and hands over what it caught. */
export function takeEarlyErrors(): unknown[] {
  return window.__takeEarlyErrors?.() ?? [];
}
