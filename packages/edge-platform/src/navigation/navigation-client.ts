import { useCallback, useEffect, useLayoutEffect } from "react";
import { type ClientInstrumentation, type To, useHref, useLocation, useNavigationType } from "react-router";
import { ROUTE_LOADING_TIMEOUT_MS } from "../constants";
import { navigationCode } from "./navigation-code";

/**
 * What the first-load JavaScript holds of navigation: the hook that installs the navigation code as the app
 * hydrates, the instrumentation that puts the navigation gate in front of every navigation (holding those
 * started before it is installed), and the one navigation verb React Router lacks, `prefetch`. The rest
 * (navigation-install.ts) is not needed to show the page and stays out of the first load, which keeps that
 * small: it is asked for as the first load's modules start to run (navigation-code.ts), and hydration's
 * commit installs it.
 */

type Installed = typeof import("./navigation-install");

let installed: Installed | undefined;
let loading = false;
const waiting: string[] = [];
/** The pathname the last render showed: where the route announcer starts from. */
let shownPath: string | undefined;
let settle: () => void = () => {};
/** Settles once the navigation code is installed, or could not load. */
const settled = new Promise<void>((resolve) => {
  settle = resolve;
});

/** The id of the empty live region the layout renders; the navigation code announces each new page there. */
export const ROUTE_ANNOUNCER_ID = "route-announcer";

/**
 * Loads and installs the navigation code as the app hydrates: a layout effect runs in the hydration
 * commit itself, before any navigation the user can start. After a render showing another page (its title
 * and h1 are in the DOM by then), the navigation code announces it and moves focus.
 */
export function useNavigationInstall(): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(loadNavigation, []);
  useEffect(() => {
    shownPath = pathname;
    installed?.pageShown(pathname, navigationType);
  }, [pathname, navigationType]);
}

/**
 * packages/edge-platform/docs/contract.md C2's `prefetch`, the navigation verb React Router lacks (for the
 * others use its `useNavigate` and `useRevalidator`): queues what a navigation to `to` needs (C5: bounded,
 * stale times, save-data aware). A relative `to` is resolved like a link's in the calling route.
 */
export function usePrefetch(): (to: To) => void {
  const base = useHref(".");
  return useCallback(
    (to: To) => {
      const from = new URL(base, window.location.href);
      prefetchPage(new URL(typeof to === "string" ? to : hrefOf(to), from).href);
    },
    [base],
  );
}

function hrefOf(to: Exclude<To, string>): string {
  return `${to.pathname ?? window.location.pathname}${to.search ?? ""}${to.hash ?? ""}`;
}

/**
 * A tap on a link while React hydrates. React hydrates at once whatever a click lands in, then hands the
 * click to the link; when that hydration does not finish in the click's task (seen in Chromium at a phone's
 * CPU, about one tap in three during hydration), React stops the click and the browser follows the link
 * with a full page load, the slowest way there. This listener, on the document after React's own, sees the
 * click after React's attempt: if the page is still not hydrated (`data-navigation` is set in hydration's
 * commit), it keeps the browser from leaving and the click becomes a client navigation once the navigation
 * code is installed. A plain same-origin link only; the link's own options (`replace`, `state`) are not
 * known there and do not apply. Removed once the page is hydrated. Should the navigation code not arrive
 * within C4's time-out, counted from hydration's commit (when it can be installed), the browser follows the
 * link, as the gate would.
 */
let earlyClick: string | undefined;

export function catchEarlyClicks(): void {
  document.addEventListener("click", onEarlyClick, true);
}

function onEarlyClick(event: MouseEvent): void {
  if (document.documentElement.dataset.navigation) {
    document.removeEventListener("click", onEarlyClick, true);
    return;
  }
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (
    !(link instanceof HTMLAnchorElement) ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey ||
    link.hasAttribute("download") ||
    (link.target && link.target !== "_self") ||
    link.origin !== window.location.origin ||
    (link.hash && link.pathname === window.location.pathname && link.search === window.location.search)
  )
    return;
  event.preventDefault();
  earlyClick = link.pathname + link.search + link.hash;
}

/** Prefetches what a navigation to `href` would need, once the navigation code is there. */
function prefetchPage(href: string): void {
  if (installed) installed.prefetchPage(href);
  else waiting.push(href);
}

/**
 * React Router instrumentation (a public API, given to HydratedRouter): every navigation asked of the router
 * passes the navigation gate (navigation-gate.ts) before React Router starts it. One started before the
 * navigation code is installed waits for it (a few milliseconds) first, so none escapes the fallbacks; if the
 * navigation code cannot load, or has not arrived within C4's time-out, React Router's own behaviour applies.
 */
export const navigationGate: ClientInstrumentation = {
  router({ instrument }) {
    instrument({
      async navigate(go, { to, formMethod }) {
        if (!installed)
          await Promise.race([settled, new Promise((done) => setTimeout(done, ROUTE_LOADING_TIMEOUT_MS))]);
        if (installed) await installed.gateNavigation(go, { to, formMethod });
        else await go();
      },
    });
  },
};

/**
 * Installs the navigation code; if it cannot load, navigations go on with React Router's own behaviour.
 * `<html data-navigation>` shows the state: "loading", then "ready" or "unavailable". Link prefetching and
 * the prefetches asked for before starts a task later, once the navigations that waited for the code have
 * passed the gate (which holds the queue for them).
 */
function loadNavigation(): void {
  if (loading) return;
  loading = true;
  const state = document.documentElement.dataset;
  state.navigation = "loading";
  setTimeout(() => {
    if (earlyClick && !installed) window.location.assign(earlyClick);
  }, ROUTE_LOADING_TIMEOUT_MS);
  navigationCode
    .then((loaded) => {
      loaded.installNavigation(shownPath ?? window.location.pathname, ROUTE_ANNOUNCER_ID);
      installed = loaded;
      state.navigation = "ready";
      if (earlyClick) loaded.navigateTo(earlyClick);
      setTimeout(() => {
        loaded.startPrefetching();
        for (const href of waiting.splice(0)) loaded.prefetchPage(href);
      });
    })
    .catch((error: unknown) => {
      state.navigation = "unavailable";
      if (earlyClick) window.location.assign(earlyClick);
      console.warn("The navigation code could not load; React Router's defaults apply", error);
    })
    .finally(() => {
      earlyClick = undefined;
      settle();
    });
}
