import { useCallback, useEffect, useLayoutEffect } from "react";
import { type ClientInstrumentation, type To, useHref, useLocation, useNavigationType } from "react-router";

/**
 * What the first-load JavaScript holds of navigation: the hook that loads the navigation code as the app
 * hydrates, the instrumentation that puts the navigation gate in front of every navigation (holding those
 * started before it is installed), and the one navigation verb React Router lacks, `prefetch`. The rest
 * (navigation-install.ts) is imported after hydration: it is not needed to show the page, and keeping it
 * out of the first load keeps that small.
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

/** Prefetches what a navigation to `href` would need, once the navigation code is there. */
function prefetchPage(href: string): void {
  if (installed) installed.prefetchPage(href);
  else waiting.push(href);
}

/**
 * React Router instrumentation (a public API, given to HydratedRouter): every navigation asked of the router
 * passes the navigation gate (navigation-gate.ts) before React Router starts it. One started before the
 * navigation code is installed waits for it (a few milliseconds) first, so none escapes the fallbacks; if the
 * navigation code cannot load, React Router's own behaviour applies.
 */
export const navigationGate: ClientInstrumentation = {
  router({ instrument }) {
    instrument({
      async navigate(go, { to, formMethod }) {
        if (!installed) await settled;
        if (installed) await installed.gateNavigation(go, { to, formMethod });
        else await go();
      },
    });
  },
};

/**
 * Imports and installs the navigation code; if it cannot load, navigations go on with React Router's own
 * behaviour. `<html data-navigation>` shows the state: "loading", then "ready" or "unavailable".
 */
function loadNavigation(): void {
  if (loading) return;
  loading = true;
  const state = document.documentElement.dataset;
  state.navigation = "loading";
  import("./navigation-install")
    .then((loaded) => {
      loaded.installNavigation(shownPath ?? window.location.pathname, ROUTE_ANNOUNCER_ID);
      installed = loaded;
      state.navigation = "ready";
      for (const href of waiting.splice(0)) loaded.prefetchPage(href);
    })
    .catch((error: unknown) => {
      state.navigation = "unavailable";
      console.warn("The navigation code could not load; React Router's defaults apply", error);
    })
    .finally(settle);
}
