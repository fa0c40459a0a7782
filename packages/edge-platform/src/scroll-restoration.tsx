import { useLayoutEffect } from "react";
import {
  type Location,
  useLocation,
  UNSAFE_useScrollRestoration as useScrollRestoration,
} from "react-router";

/**
 * Scroll restoration, as React Router's `<ScrollRestoration>` does it, without its cost to the first paint
 * (packages/edge-platform/docs/decisions/026-first-paint-scroll-restoration.md).
 *
 * React Router's component renders a classic inline script that, before the page paints, gives a new history
 * entry a key (`history.replaceState`) and reads the positions saved in `sessionStorage`, then scrolls to the
 * one saved for the entry's key. On a visitor's first load of a page, the entry is new, so nothing can have
 * been saved for it: the storage read and the state write are spent for nothing, in the only script Chromium
 * ran before the first paint in every traced load (the parser yielded to paint right after it). Here the script
 * does something only for an entry that has a key (a reload, a back or forward), and the new entry gets its key
 * from the client entry, before React Router's router reads it (`keyNewHistoryEntry`). Saving positions and
 * restoring them on client navigations stay React Router's own (`UNSAFE_useScrollRestoration`), but for the key
 * it saves under when the page is hidden (`positionKey`).
 *
 * The storage key and the entry key are React Router's: both are checked against the installed React Router
 * by packages/edge-platform/tests/unit/react-router-assumptions.test.ts ("scroll restoration").
 */

/** Where React Router keeps saved positions (its `SCROLL_RESTORATION_STORAGE_KEY`, not exported). */
export const SCROLL_POSITIONS_STORAGE_KEY = "react-router-scroll-positions";

/**
 * The script before the first paint: for an entry React Router has seen (it has a key), the position saved
 * for it, if any; for a new entry, nothing. A storage that cannot be read or holds something else is
 * dropped, as React Router's does. The storage key (letters and dashes) is quoted as it is: a
 * `JSON.stringify` call here stayed in the client's first load, where the script is never used.
 */
export const RESTORE_SCROLL_SCRIPT = `((storageKey) => {
  let key = window.history.state && window.history.state.key;
  if (!key) return;
  try {
    let storedY = JSON.parse(sessionStorage.getItem(storageKey) || "{}")[key];
    if (typeof storedY === "number") window.scrollTo(0, storedY);
  } catch (error) {
    console.error(error);
    sessionStorage.removeItem(storageKey);
  }
})("${SCROLL_POSITIONS_STORAGE_KEY}")`;

/**
 * Gives a new history entry its key, as React Router's inline script does: a random one, in React Router's
 * format. Runs in the client entry before hydration, so the router's first location carries it (React Router
 * keys an entry without one "default", and would restore one entry's position into another's).
 */
export function keyNewHistoryEntry(): void {
  const state = window.history.state as { key?: unknown } | null;
  if (state?.key) return;
  window.history.replaceState({ ...state, key: Math.random().toString(32).slice(2) }, "");
}

/** The key of the history entry whose page is on screen: set as React commits it (a layout effect). */
let keyOnScreen: string | undefined;

/**
 * The key a position is saved under: the location's own (React Router's default), but in a `pagehide` listener,
 * the entry on screen. React Router's listener is a passive effect, re-registered after each commit, and saves
 * `scrollY` under the key of the location it was registered with. A document navigation (a reload, another site,
 * a `reloadDocument` link) between a client navigation's commit and that effect, which React runs after the
 * paint, found the old listener: the new page's position, 0, was saved under the entry left, over the position
 * kept for it, so Back to it opened at the top. (After a "loading" commit the old listener skips the save; a
 * click rendered in one render, the platform's data-first wait, has none.) Seen in Chromium run with one renderer
 * process per browser context (`--renderer-process-limit=1`: scroll-restoration.spec.ts's test of Back failed 5
 * runs in 50, the document navigation 13-35 ms after the commit); a phone's slower paints widen that window. The
 * listener's event is told by `window.event`, the event being dispatched (in every browser; React DOM reads it
 * too, for an update's priority): a listener of our own to mark it cost the first load 270 bytes more.
 */
function positionKey(location: Location): string {
  return (window.event?.type === "pagehide" && keyOnScreen) || location.key;
}

/**
 * In place of React Router's `<ScrollRestoration>`. The script runs once, from the server's HTML; the
 * browser renders it empty, so its text is not in the JavaScript bundle, and hydration leaves the parsed
 * element as it is.
 */
export function ScrollRestoration({ nonce }: { nonce: string | undefined }) {
  const { key } = useLocation();
  useLayoutEffect(() => {
    keyOnScreen = key;
  }, [key]);
  useScrollRestoration({ storageKey: SCROLL_POSITIONS_STORAGE_KEY, getKey: positionKey });
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours (above)
      dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? RESTORE_SCROLL_SCRIPT : "" }}
    />
  );
}
