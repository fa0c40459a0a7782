import { PLATFORM_TEXT_TRANSLATIONS } from "../build-config";
import { memoize } from "./memo.ts";
import type { PlatformTexts } from "./visitor";

export type { PlatformTexts };

export const ENGLISH_TEXTS: PlatformTexts = {
  skipToContent: "Skip to content",
  notFound: "This page could not be found.",
  notFoundTitle: "404: Page not found",
  methodNotAllowed: "Method Not Allowed: this page does not accept that kind of request.",
  requestFailed: "Request failed.",
  writeLimited:
    "Too many posts from your connection in a short time, so this one was not sent. " +
    "Your text is still here: send again in {seconds} seconds.",
};

/** The platform's texts in a locale: the product's translation where it has one, English elsewhere. */
export function platformTexts(locale: string): PlatformTexts {
  const translated = platformTranslation(locale);
  return translated ? { ...ENGLISH_TEXTS, ...translated } : ENGLISH_TEXTS;
}

/** The `<meta name>` a page carries its language's translation in (PlatformDocument). */
export const PLATFORM_TEXTS_META = "platform-texts";

/**
 * The product's translation of the platform's texts into a locale. On the server, from the build. In the
 * browser, the one the document carries (PlatformDocument writes it in `<meta name="platform-texts">`): the
 * document's language is the only one its pages show, and the others stay out of the JavaScript.
 */
export function platformTranslation(locale: string): Partial<PlatformTexts> | undefined {
  if (import.meta.env.SSR || typeof document === "undefined") return builtTranslation(locale);
  documentTranslation ??= readDocumentTranslation();
  return locale === document.documentElement.lang ? documentTranslation.texts : undefined;
}

/** The build's translation for a locale, else for its language (`ar` for `ar-EG`); remembered (memo.ts). */
const builtTranslation = memoize(
  64,
  (locale): Partial<PlatformTexts> | undefined =>
    PLATFORM_TEXT_TRANSLATIONS[locale] ?? PLATFORM_TEXT_TRANSLATIONS[new Intl.Locale(locale).language],
);

let documentTranslation: { texts: Partial<PlatformTexts> | undefined } | undefined;

function readDocumentTranslation(): { texts: Partial<PlatformTexts> | undefined } {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${PLATFORM_TEXTS_META}"]`)?.content;
  if (!content) return { texts: undefined };
  try {
    return { texts: JSON.parse(content) as Partial<PlatformTexts> };
  } catch {
    return { texts: undefined };
  }
}

/** `{name}` placeholders filled in; a missing value leaves the placeholder (a translation's typo shows). */
export function fillText(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A product's own texts, as the platform's are kept: complete in the default language, any other language
 * partial (what it leaves out is shown in the default's words). `useTexts(pageTexts)` picks the visitor's.
 *
 *   const pageTexts = defineTexts({ title: "Now" }, { ja: { title: "現在" } });
 */
export function defineTexts<T extends Record<string, string>>(
  fallback: T,
  translations: Readonly<Record<string, Partial<T>>> = {},
): (locale: string) => T {
  // Remembered per locale: a page asks on every render (memo.ts).
  return memoize(64, (locale) => {
    const translated = translations[locale] ?? translations[new Intl.Locale(locale).language];
    return translated ? { ...fallback, ...translated } : fallback;
  });
}
