import type { ClientInstrumentation } from "react-router";
import type { RouterInternals } from "./react-router-adapter";

/**
 * What the first-load JavaScript holds of the navigation platform: a way to ask for prefetches, and a
 * hold on navigations until the platform is installed. The platform itself is imported as the app
 * hydrates (it is not needed to show the page; keeping it out of the first load keeps that small).
 */

type Platform = typeof import("./navigation-platform");

let platform: Platform | undefined;
let loading = false;
const waiting: string[] = [];
let settle: () => void = () => {};
/** Settles once the platform is installed, or could not load. */
const settled = new Promise<void>((resolve) => {
  settle = resolve;
});

/** The id of the empty live region the layout renders; the platform announces each new page there. */
export const ROUTE_ANNOUNCER_ID = "route-announcer";

/**
 * Called after each render that shows another pathname. Once the platform is there it announces the page
 * and moves focus; before (the first load) there is nothing to announce.
 */
export function pageShown(pathname: string): void {
  platform?.pageShown(pathname);
}

/** Prefetches what a navigation to `href` would need (packages/edge-platform/docs/contract.md C5), once the platform is there. */
export function prefetchPage(href: string): void {
  if (platform) platform.prefetchPage(href);
  else waiting.push(href);
}

/**
 * React Router instrumentation (a public API, given to HydratedRouter): navigations started before the
 * platform is installed wait for it (a few milliseconds), so none escapes the fallbacks.
 */
export const navigationHold: ClientInstrumentation = {
  router({ instrument }) {
    instrument({
      async navigate(navigate, { to }) {
        if (!platform) {
          await settled;
          // Installed meanwhile: this navigation did not go through its route-code gate (packages/edge-platform/docs/contract.md C4).
          await (platform as Platform | undefined)?.routeCodeLoadedFor(to);
        }
        await navigate();
      },
    });
  },
};

/**
 * Imports and installs the platform; if it cannot load, navigations go on with React Router's own
 * behaviour. `<html data-navigation>` shows the state: "loading", then "ready" or "unavailable".
 */
export function loadNavigationPlatform(internals: RouterInternals): void {
  if (loading) return;
  loading = true;
  const state = document.documentElement.dataset;
  state.navigation = "loading";
  import("./navigation-platform")
    .then(
      (loaded) => {
        loaded.installNavigationPlatform(internals, ROUTE_ANNOUNCER_ID);
        platform = loaded;
        state.navigation = "ready";
        for (const href of waiting.splice(0)) loaded.prefetchPage(href);
      },
      (error: unknown) => {
        state.navigation = "unavailable";
        console.warn("Navigation platform could not load; React Router's defaults apply", error);
      },
    )
    .finally(settle);
}
