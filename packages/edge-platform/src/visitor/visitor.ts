import { memoize } from "./memo.ts";

/**
 * Who is asking, as far as text and time go: the language a page is written in, its writing direction and
 * the time zone its times are shown in (packages/edge-platform/docs/i18n.md). Decided once per request by
 * the Worker (`visitorOf`, negotiation.ts), handed to loaders and actions (`getVisitor`) and to React (`useVisitor`), the
 * same on both sides of hydration.
 */
export type Visitor = {
  /** A BCP 47 tag, one of the product's locales. */
  locale: string;
  direction: "ltr" | "rtl";
  /**
   * An IANA time zone name, or null on a shared page (one copy for every visitor, docs/caching.md): times
   * there are shown in UTC until the browser has hydrated, then in the browser's own zone.
   */
  timeZone: string | null;
};

/** The locales a product declares (product.config.ts `LOCALES`), its default first. */
export type LocaleSettings = {
  locales: readonly string[];
  defaultLocale: string;
  /** Where neither the visitor's cookie nor the edge says (an edge request always says). */
  defaultTimeZone: string;
};

/** The cookie a product sets when a visitor chooses a language (a BCP 47 tag among its locales). */
export const LOCALE_COOKIE = "locale";
/** The cookie the browser sets once it knows its time zone (an IANA name): `tz`. */
export const TIME_ZONE_COOKIE = "tz";

/** Longer than any IANA name (the longest is 32 characters) or BCP 47 tag a product would declare. */
export const MAX_NAME_LENGTH = 64;

/** The same visitor for everyone who shares a copy of a page: their locale, no time zone of theirs. */
export function sharedVisitor(locale: string): Visitor {
  return { locale, direction: localeDirection(locale), timeZone: null };
}

/** `rtl` for scripts written right to left (Arabic, Hebrew, Persian, Urdu, ...), from the runtime's CLDR data. */
export function localeDirection(locale: string): "ltr" | "rtl" {
  return directionOf(locale);
}

const directionOf = memoize(64, (locale): "ltr" | "rtl" => {
  const info = new Intl.Locale(locale) as Intl.Locale & {
    getTextInfo?: () => { direction?: string };
    textInfo?: { direction?: string };
  };
  const direction = (info.getTextInfo?.() ?? info.textInfo)?.direction;
  return direction === "rtl" ? "rtl" : "ltr";
});

/** An IANA time zone name the runtime knows, in its canonical spelling; anything else is undefined. */
export function validTimeZone(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_NAME_LENGTH) return undefined;
  if (!/^[A-Za-z0-9_+\-/]+$/.test(value)) return undefined;
  return knownTimeZone(value);
}

/** Remembered: a DateTimeFormat costs about 70 µs, and every request checks the same few zones. */
const knownTimeZone = memoize(1_024, (value) => {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
});

/**
 * Every text the platform itself shows a visitor, by locale. English is built in and is the fallback for
 * any text a language leaves out; a product adds a language, or rewords one, in product.config.ts
 * (`PLATFORM_TEXTS`). The application-error sentences of packages/edge-platform/docs/contract.md C1 are not
 * here: they are specified word for word, in English, and stay so (marked `lang="en"` on a page in another
 * language).
 */
export type PlatformTexts = {
  /** The skip link before the header, to `<main>`. */
  skipToContent: string;
  /** The 404 page's sentence, and its document title. */
  notFound: string;
  notFoundTitle: string;
  /** The sentence of a 405 page (React Router's own names a route, which is for developers). */
  methodNotAllowed: string;
  /** Any other error status without a message of its own. */
  requestFailed: string;
  /** A write refused for its client's limit (limits/write-limited.ts); `{seconds}` is the wait. */
  writeLimited: string;
};
