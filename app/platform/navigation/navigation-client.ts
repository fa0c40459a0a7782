import type { NavigationPlatformParts } from "./navigation-platform";

/**
 * What the first-load JavaScript holds of the navigation platform: a way to ask for prefetches, and a
 * hold on navigations until the platform is installed. The platform itself is imported as the app
 * hydrates (it is not needed to show the page; keeping it out of the first load keeps that small, issue 6).
 */

type Platform = typeof import("./navigation-platform");

let platform: Platform | undefined;
let loading = false;
const waiting: string[] = [];

/** Prefetches what a navigation to `href` would need (SPEC C5), once the platform is there. */
export function prefetchPage(href: string): void {
  if (platform) platform.prefetchPage(href);
  else waiting.push(href);
}

/**
 * Imports and installs the platform. Navigations started meanwhile wait for it (a few milliseconds), so
 * none escapes the fallbacks; if it cannot load, they go on with React Router's own behaviour.
 * `<html data-navigation>` shows the state: "loading", then "ready" or "unavailable".
 */
export function loadNavigationPlatform(parts: NavigationPlatformParts): void {
  if (loading) return;
  loading = true;
  const { router } = parts;
  const navigate = router.navigate;
  const state = document.documentElement.dataset;
  state.navigation = "loading";
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  router.navigate = ((...args: Parameters<typeof navigate>) =>
    settled.then(() => router.navigate(...args))) as typeof navigate;

  import("./navigation-platform")
    .then(
      (loaded) => {
        router.navigate = navigate;
        loaded.installNavigationPlatform(parts);
        platform = loaded;
        state.navigation = "ready";
        for (const href of waiting.splice(0)) loaded.prefetchPage(href);
      },
      (error: unknown) => {
        router.navigate = navigate;
        state.navigation = "unavailable";
        console.warn("Navigation platform could not load; React Router's defaults apply", error);
      },
    )
    .finally(settle);
}
