import type { NavigationType } from "react-router";

/**
 * What a screen reader user gets from a client navigation (a document load gives it for free):
 * - the new page's title is announced in the layout's live region (Next.js's route announcer: the title,
 *   else the h1, else the path);
 * - focus moves to the new page's h1 (else main), so the next Tab starts in the new content, not on a
 *   link that no longer exists. Back and forward announce too but leave focus alone: focusing would fight
 *   the scroll position they restore, and the visitor chose to return to where they were.
 * Only another pathname counts: a refresh, a revalidation after a post, or a #fragment (the skip link) are
 * the same page.
 */
export class RouteAnnouncer {
  #shownPath: string;
  readonly #regionId: string;

  /** `regionId`: the id of the live region the layout renders (ROUTE_ANNOUNCER_ID). */
  constructor(initialPath: string, regionId: string) {
    this.#shownPath = initialPath;
    this.#regionId = regionId;
  }

  pageShown(pathname: string, historyAction: NavigationType): void {
    if (pathname === this.#shownPath) return;
    this.#shownPath = pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    const region = document.getElementById(this.#regionId);
    if (region) region.textContent = document.title || heading?.textContent || pathname;
    if (historyAction === "POP") return;
    const target = heading ?? document.querySelector<HTMLElement>("main");
    if (!target) return;
    // Not a control: reachable by script only, outside the Tab order.
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // Scroll restoration has put the page where it belongs (top, or a #fragment).
    target.focus({ preventScroll: true });
  }
}
