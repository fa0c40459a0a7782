import type { NavigationPlatformParts } from "./navigation-platform";

/**
 * What the first-load JavaScript holds of the navigation platform: a way to ask for prefetches. The
 * platform itself is imported right after hydration (it is not needed to show the page, and keeping it
 * out of the first load keeps that within budget, issue 6); requests made before it arrives are kept.
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

export function loadNavigationPlatform(parts: NavigationPlatformParts): void {
  if (loading) return;
  loading = true;
  import("./navigation-platform").then(
    (loaded) => {
      loaded.installNavigationPlatform(parts);
      platform = loaded;
      for (const href of waiting.splice(0)) loaded.prefetchPage(href);
    },
    (error: unknown) =>
      console.warn("Navigation platform could not load; React Router's defaults apply", error),
  );
}
