/**
 * packages/edge-platform/docs/contract.md C5, "same-origin links prefetch by default once they are visible": which links of the page are
 * prefetched, and when (packages/edge-platform/docs/decisions/015-react-router-links.md, 020-react-router-prefetch-prop.md). Lives
 * in the lazily loaded navigation code, so none of it is in the first-load JavaScript; it starts when the
 * navigation code is installed, after hydration.
 *
 * Every link takes part: React Router's `Link` and `NavLink` render plain anchors, so the platform watches
 * anchors, whatever component rendered them. An anchor's `data-prefetch` (passed through by `Link` and
 * `NavLink` like any other attribute) chooses the mode:
 * - absent (the default): once the link is visible, in the order the links appear on screen;
 * - "render": as soon as the link is in the document;
 * - "intent": only on intent (below);
 * - "none": never (the per-link opt-out).
 * Intent on any of them except "none" (the pointer resting 100 ms, focus, a touch) moves the link's
 * prefetch to the front of the queue, or starts it there. A click cancels a pending hover, so a
 * navigation never races its own hover prefetch. Everything goes through the one bounded queue
 * (`prefetch` is navigation-install.ts's `prefetchPage`), which also skips Save-Data / 2g.
 * React Router's own `prefetch` prop arrives here as `data-prefetch` too: the application's `Link` and
 * `NavLink` are the platform's wrappers (react-router-links.tsx), which never let React Router render its
 * own `<link>` tags, so nothing bypasses the queue.
 */

import { afterNextPaint } from "./prefetch-queue";

export type LinkPrefetchMode = "none" | "intent" | "viewport" | "render";

/** What decides a link's mode, besides the page's origin: its anchor's attributes. */
export type LinkFacts = {
  /** The resolved `href` (HTMLAnchorElement.href). */
  href: string;
  /** The `href` attribute as written: "#main" stays a fragment however the page's URL changes. */
  written: string | null;
  /** `target`, `download` and `data-prefetch` as written, null when absent. */
  target: string | null;
  download: string | null;
  prefetch: string | null;
};

type Prefetch = (href: string, options: { ahead: boolean }) => void;

const LINKS = "a[href]";

/** Hovering this long reads as intent; a pointer passing over a list does not (React Router's own delay). */
const INTENT_DELAY_MS = 100;

/**
 * The link's mode. Links a client navigation never follows are "none": another origin (or `mailto:` and
 * the like), a download, a link that opens another browsing context, and a link written as a fragment alone
 * (the document's skip link, `#main`), which always points into the page shown: its resolved `href` changes with
 * every navigation, and was then measured as a new target while the next page rendered. An unknown
 * `data-prefetch` counts as the default.
 */
export function linkPrefetchMode(link: LinkFacts, pageOrigin: string): LinkPrefetchMode {
  if (link.download !== null) return "none";
  if (link.written?.startsWith("#")) return "none";
  if (link.target !== null && link.target !== "" && link.target.toLowerCase() !== "_self") return "none";
  let origin: string;
  try {
    origin = new URL(link.href).origin;
  } catch {
    return "none";
  }
  if (origin !== pageOrigin) return "none";
  const mode = link.prefetch;
  return mode === "none" || mode === "intent" || mode === "render" ? mode : "viewport";
}

function modeOf(anchor: HTMLAnchorElement): LinkPrefetchMode {
  return linkPrefetchMode(
    {
      href: anchor.href,
      written: anchor.getAttribute("href"),
      target: anchor.getAttribute("target"),
      download: anchor.getAttribute("download"),
      prefetch: anchor.getAttribute("data-prefetch"),
    },
    window.location.origin,
  );
}

/**
 * Watches the document's links for the rest of the page's life: new links (a navigation renders them) are
 * picked up by a MutationObserver, visibility by one IntersectionObserver.
 */
export class LinkPrefetcher {
  readonly #prefetch: Prefetch;
  /** The href each watched anchor was prefetched for (absent: not yet). */
  readonly #done = new WeakMap<HTMLAnchorElement, string>();
  readonly #watched = new Set<HTMLAnchorElement>();
  readonly #visible = new Set<HTMLAnchorElement>();
  readonly #viewport: IntersectionObserver;
  #hover: { anchor: HTMLAnchorElement; timer: ReturnType<typeof setTimeout> } | undefined;
  #scanQueued = false;

  constructor(prefetch: Prefetch) {
    this.#prefetch = prefetch;
    this.#viewport = new IntersectionObserver((entries) => this.#onIntersect(entries));
  }

  start(root: HTMLElement = document.body): void {
    new MutationObserver(() => this.#queueScan()).observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["href", "target", "download", "data-prefetch"],
    });
    root.addEventListener("mouseover", (event) => this.#onPointerOver(event));
    root.addEventListener("mouseout", (event) => this.#onPointerOut(event));
    root.addEventListener("focusin", (event) => this.#onIntent(event));
    root.addEventListener("touchstart", (event) => this.#onIntent(event), { passive: true });
    root.addEventListener("click", () => this.#cancelHover(), { capture: true });
    this.#scan();
  }

  /**
   * A scan after the next paint, not in the microtask after the change: a client navigation's commit is such a
   * change, and its links' scan (their modes, URLs, observers) held the new page's paint by 2 ms of a phone's CPU
   * (Chromium's 4x slowdown). A prefetch a frame later is still long before a tap.
   */
  #queueScan(): void {
    if (this.#scanQueued) return;
    this.#scanQueued = true;
    afterNextPaint(() => {
      this.#scanQueued = false;
      this.#scan();
    });
  }

  #scan(): void {
    for (const anchor of this.#watched) {
      if (!anchor.isConnected) this.#unwatch(anchor);
    }
    for (const anchor of document.querySelectorAll<HTMLAnchorElement>(LINKS)) {
      // `a[href]` matches SVG links too; they are not navigations React Router makes.
      if (!(anchor instanceof HTMLAnchorElement)) continue;
      const mode = modeOf(anchor);
      if (mode === "render") this.#prefetchOnce(anchor, false);
      if (mode === "viewport" && !this.#watched.has(anchor)) {
        this.#watched.add(anchor);
        this.#viewport.observe(anchor);
      }
      if (mode !== "viewport" && this.#watched.has(anchor)) this.#unwatch(anchor);
    }
    // An href changed on a visible link: it is a new target.
    this.#prefetchVisible();
  }

  #unwatch(anchor: HTMLAnchorElement): void {
    this.#watched.delete(anchor);
    this.#visible.delete(anchor);
    this.#viewport.unobserve(anchor);
  }

  #onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const anchor = entry.target as HTMLAnchorElement;
      if (entry.isIntersecting) this.#visible.add(anchor);
      else this.#visible.delete(anchor);
    }
    this.#prefetchVisible();
  }

  /** Every visible, not yet prefetched link, top to bottom, then left to right (the queue keeps the order). */
  #prefetchVisible(): void {
    const waiting = [...this.#visible].filter((anchor) => this.#done.get(anchor) !== anchor.href);
    const positions = new Map(waiting.map((anchor) => [anchor, anchor.getBoundingClientRect()]));
    waiting.sort((a, b) => {
      const [ra, rb] = [positions.get(a), positions.get(b)];
      return ra && rb ? ra.top - rb.top || ra.left - rb.left : 0;
    });
    for (const anchor of waiting) this.#prefetchOnce(anchor, false);
  }

  /**
   * Prefetches the anchor's target once per href. A link to the page being shown is passed over for
   * good: its code is here, and its data came with the document (a visit back fetches it then; intent
   * on the link still prefetches it).
   */
  #prefetchOnce(anchor: HTMLAnchorElement, ahead: boolean): void {
    if (!ahead && this.#done.get(anchor) === anchor.href) return;
    this.#done.set(anchor, anchor.href);
    const target = new URL(anchor.href, window.location.href);
    const shown = target.origin === window.location.origin && target.pathname === window.location.pathname;
    if (ahead || !shown) this.#prefetch(anchor.href, { ahead });
  }

  #onPointerOver(event: MouseEvent): void {
    const anchor = intentLink(event.target);
    if (!anchor || this.#hover?.anchor === anchor) return;
    this.#cancelHover();
    const timer = setTimeout(() => {
      this.#hover = undefined;
      this.#prefetchOnce(anchor, true);
    }, INTENT_DELAY_MS);
    this.#hover = { anchor, timer };
  }

  #onPointerOut(event: MouseEvent): void {
    const hovered = this.#hover?.anchor;
    if (hovered && !(event.relatedTarget instanceof Node && hovered.contains(event.relatedTarget))) {
      this.#cancelHover();
    }
  }

  #onIntent(event: Event): void {
    const anchor = intentLink(event.target);
    if (anchor) this.#prefetchOnce(anchor, true);
  }

  #cancelHover(): void {
    clearTimeout(this.#hover?.timer);
    this.#hover = undefined;
  }
}

/** The prefetching link an event happened in, if any ("none" links never prefetch). */
function intentLink(target: EventTarget | null): HTMLAnchorElement | undefined {
  const anchor = target instanceof Element ? target.closest(LINKS) : null;
  return anchor instanceof HTMLAnchorElement && modeOf(anchor) !== "none" ? anchor : undefined;
}
