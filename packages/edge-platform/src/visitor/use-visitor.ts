import { createContext, createElement, type ReactNode, use, useContext, useSyncExternalStore } from "react";
import { LOCALE_SETTINGS } from "../build-config";
import { sharedVisitor, TIME_ZONE_COOKIE, type Visitor } from "./visitor";

/** The visitor a document was rendered for, and the instant it was rendered (the root loader's `visitor`). */
export type DocumentVisitor = Visitor & {
  /**
   * Milliseconds since the epoch when the server rendered the document; null when unknown (a page
   * pre-rendered before the root loader said). Relative times are counted from it until hydration is done,
   * so the browser's first render says what the server's did.
   */
  renderedAt: number | null;
};

/** The renderer provides the request's visitor (entry.server.tsx). */
const VisitorContext = createContext<DocumentVisitor | undefined>(undefined);

export function VisitorProvider({ visitor, children }: { visitor: DocumentVisitor; children: ReactNode }) {
  return createElement(VisitorContext, { value: visitor }, children);
}

/**
 * The visitor the page is rendered for: their language, writing direction and time zone, and when the
 * document was rendered. On the server, the request's (the renderer provides it). In the browser, the one the
 * document was rendered for, read from its `<html>` (`lang`, `dir`, `data-time-zone`, `data-rendered-at`:
 * PlatformDocument writes them) and kept for the document's life: the first render must say what the
 * server's did, whatever the route's data, a 404 included; a navigation must not change the language of a
 * page half-way (a new choice of language reloads the document).
 */
export function useVisitor(): DocumentVisitor {
  return useContext(VisitorContext) ?? documentVisitor();
}

/** The browser's document visitor, read once (client only). */
let hydratedVisitor: DocumentVisitor | undefined;

/**
 * The visitor from a function React Router calls while rendering (a route's `meta`, called by `<Meta>`):
 * React's `use` reads the renderer's context there, as a hook would; outside a render, the document's.
 */
export function visitorWhileRendering(): DocumentVisitor {
  let provided: DocumentVisitor | undefined;
  try {
    provided = use(VisitorContext);
  } catch {
    // Called outside a render (a unit test, a product's own code): no renderer to ask.
  }
  return provided ?? documentVisitor();
}

/** The visitor outside React; on the server, outside a render, the default. */
export function documentVisitor(): DocumentVisitor {
  if (typeof document === "undefined") return defaultVisitor();
  hydratedVisitor ??= visitorOfDocument(document.documentElement);
  return hydratedVisitor;
}

/** What PlatformDocument wrote on `<html>`; a pre-rendered page says no zone or instant. */
export function visitorOfDocument(html: HTMLElement): DocumentVisitor {
  const locale = html.lang || LOCALE_SETTINGS.defaultLocale;
  const renderedAt = Number(html.dataset.renderedAt);
  return {
    locale,
    direction: html.dir === "rtl" ? "rtl" : "ltr",
    timeZone: html.dataset.timeZone || null,
    renderedAt: Number.isFinite(renderedAt) && renderedAt > 0 ? renderedAt : null,
  };
}

function defaultVisitor(): DocumentVisitor {
  return { ...sharedVisitor(LOCALE_SETTINGS.defaultLocale), renderedAt: null };
}

/** False on the server and while the browser hydrates, true after: what may differ from the server's HTML waits for it. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

function subscribeNever(): () => void {
  return () => {};
}

/**
 * The browser's own time zone, sent with the next requests as the `tz` cookie when the page was rendered for
 * the visitor in another zone (the edge's guess, `request.cf.timezone`, was wrong: a VPN, a border), so every
 * page after the first is rendered in it. Only then: a copy for everyone (`current` null) says nothing of the
 * visitor's zone, and Chromium keeps a `no-store` page in its back/forward cache only while cookies stay as
 * they were. A year, like a preference; never read by the browser's code.
 *
 * Asked when the browser is idle, not in hydration's effects (and by a worker where the dates-and-times entry
 * is loaded, below): the first `Intl.DateTimeFormat` of a page sets up the browser's time-zone data, about 40 ms
 * of a desktop's CPU and 150-250 ms of a phone's (Chromium's 4x slowdown), which a tap on a link right after the
 * page appears would wait for. A navigation started before then is rendered in the edge's guess, as the first
 * page was.
 */
export function rememberTimeZone(current: string | null): void {
  if (current === null) return;
  whenIdle(() => {
    void (zoneOffMainThread ?? Promise.resolve(browserTimeZone())).then((zone) => {
      if (!zone || zone === current) return;
      const secure = location.protocol === "https:" ? "; Secure" : "";
      // biome-ignore lint/suspicious/noDocumentCookie: one preference cookie, no library for one assignment
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
    });
  });
}

/**
 * The browser's zone as a worker asks for it (zone-worker.ts), once a page that shows a date, or a link to one,
 * has loaded the dates-and-times entry, or a tap on such a link has started: then the cookie above waits for its
 * answer rather than asking on the main thread. Kept out of the first load: a page without dates asks on the
 * main thread, as before.
 */
let zoneOffMainThread: Promise<string | undefined> | undefined;

/** Called once by zone-worker.ts with the worker's answer to come. */
export function zoneAskedOffMainThread(answer: Promise<string | undefined>): void {
  zoneOffMainThread = answer;
}

/** Runs `task` when the browser is idle (within 2 s); Safari has no `requestIdleCallback`. */
export function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(task, { timeout: 2_000 });
  else setTimeout(task, 200);
}

/**
 * The zone the browser shows times in, by its own `Intl` (the operating system's setting), asked once per
 * document: each ask makes an `Intl.DateTimeFormat` (0.3-1.9 ms of a phone's CPU, Chromium's 4x slowdown), and
 * every date of a page shared by all zones asks at each render, a list of fifty at each navigation. A zone
 * changed while the document is open shows from the next document on, as the page's first render did.
 */
export function browserTimeZone(): string | undefined {
  zoneOfThisDocument ??= Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  return zoneOfThisDocument || undefined;
}

let zoneOfThisDocument: string | undefined;

/** A catalogue's texts (defineTexts) in the visitor's language. */
export function useTexts<T>(texts: (locale: string) => T): T {
  return texts(useVisitor().locale);
}
