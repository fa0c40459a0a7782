import { useCallback, useEffect, useLayoutEffect } from "react";
import { type ClientInstrumentation, type To, useHref, useLocation, useNavigationType } from "react-router";

/**
 * What the first-load JavaScript holds of navigation: the hook that loads the navigation platform as the app
 * hydrates, the instrumentation that puts the platform's gate in front of every navigation (holding those
 * started before it is installed), and the one navigation verb React Router lacks, `prefetch`. The platform
 * itself (navigation-platform.ts) is imported after hydration: it is not needed to show the page, and
 * keeping it out of the first load keeps that small.
 */

type Platform = typeof import("./navigation-platform");

let platform: Platform | undefined;
let loading = false;
const waiting: string[] = [];
/** The pathname the last render showed: where the route announcer starts from. */
let shownPath: string | undefined;
let settle: () => void = () => {};
/** Settles once the platform is installed, or could not load. */
const settled = new Promise<void>((resolve) => {
  settle = resolve;
});

/** The id of the empty live region the layout renders; the platform announces each new page there. */
export const ROUTE_ANNOUNCER_ID = "route-announcer";

/**
 * Loads and installs the navigation platform as the app hydrates: a layout effect runs in the hydration
 * commit itself, before any navigation the user can start. After a render showing another page (its title
 * and h1 are in the DOM by then), the platform announces it and moves focus.
 */
export function useNavigationPlatform(): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(loadNavigationPlatform, []);
  useEffect(() => {
    shownPath = pathname;
    platform?.pageShown(pathname, navigationType);
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

/** Prefetches what a navigation to `href` would need, once the platform is there. */
function prefetchPage(href: string): void {
  if (platform) platform.prefetchPage(href);
  else waiting.push(href);
}

/**
 * React Router instrumentation (a public API, given to HydratedRouter): every navigation asked of the router
 * passes the platform's gate (navigation-gate.ts) before React Router starts it. One started before the
 * platform is installed waits for it (a few milliseconds) first, so none escapes the fallbacks; if the
 * platform cannot load, React Router's own behaviour applies.
 */
export const navigationGate: ClientInstrumentation = {
  router({ instrument }) {
    instrument({
      async navigate(go, { to, formMethod }) {
        if (!platform) await settled;
        if (platform) await platform.gateNavigation(go, { to, formMethod });
        else await go();
      },
    });
  },
};

/**
 * Imports and installs the platform; if it cannot load, navigations go on with React Router's own
 * behaviour. `<html data-navigation>` shows the state: "loading", then "ready" or "unavailable".
 */
function loadNavigationPlatform(): void {
  if (loading) return;
  loading = true;
  const state = document.documentElement.dataset;
  state.navigation = "loading";
  import("./navigation-platform")
    .then((loaded) => {
      loaded.installNavigationPlatform(shownPath ?? window.location.pathname, ROUTE_ANNOUNCER_ID);
      platform = loaded;
      state.navigation = "ready";
      for (const href of waiting.splice(0)) loaded.prefetchPage(href);
    })
    .catch((error: unknown) => {
      state.navigation = "unavailable";
      console.warn("Navigation platform could not load; React Router's defaults apply", error);
    })
    .finally(settle);
}
