import { match } from "@formatjs/intl-localematcher";
import { parse as parseCookies } from "cookie";
import Negotiator from "negotiator";
import { memoize } from "./memo.ts";
import {
  LOCALE_COOKIE,
  type LocaleSettings,
  localeDirection,
  MAX_NAME_LENGTH,
  TIME_ZONE_COOKIE,
  type Visitor,
  validTimeZone,
} from "./visitor.ts";

/**
 * Deciding a request's visitor (visitor.ts): server only, with the libraries that read the headers, so none
 * of them reaches the browser's bundle.
 */

/**
 * The most `Accept-Language` entries looked at: a browser sends a handful; a header of 500 is not a person's
 * choice, and each entry costs a canonicalisation below.
 */
const MAX_LANGUAGE_RANGES = 16;

/** The visitor of one request: cookies first, then what the browser and the edge say, then the defaults. */
export function visitorOf(
  request: Request,
  settings: LocaleSettings,
  edgeTimeZone: unknown = (request as { cf?: { timezone?: unknown } }).cf?.timezone,
): Visitor {
  const cookies = readCookies(request.headers.get("Cookie"));
  const locale = negotiateLocale(cookies[LOCALE_COOKIE], request.headers.get("Accept-Language"), settings);
  return {
    locale,
    direction: localeDirection(locale),
    timeZone:
      validTimeZone(cookies[TIME_ZONE_COOKIE]) ?? validTimeZone(edgeTimeZone) ?? settings.defaultTimeZone,
  };
}

/**
 * The visitor's locale among the product's: an explicit choice (the cookie), else the best match for
 * `Accept-Language` (RFC 4647 lookup with the CLDR's language distances, as `Intl` negotiates), else the
 * default. Anything malformed is skipped, never an error.
 */
export function negotiateLocale(
  chosen: string | undefined,
  acceptLanguage: string | null,
  { locales, defaultLocale }: LocaleSettings,
): string {
  const choice = canonicalLocale(chosen);
  if (choice) {
    const exact = locales.find((locale) => locale.toLowerCase() === choice.toLowerCase());
    if (exact) return exact;
  }
  if (!acceptLanguage) return defaultLocale;
  return bestMatch(JSON.stringify([acceptLanguage, locales, defaultLocale]));
}

/**
 * Remembered per header and locales: browsers send a few distinct `Accept-Language` values, and reading and
 * matching one costs about 15 µs (memo.ts).
 */
const bestMatch = memoize(512, (key) => {
  const [acceptLanguage, locales, defaultLocale] = JSON.parse(key) as [string, string[], string];
  // Negotiator reads the header (q-values, order, `*`) as RFC 9110 says; it returns the ranges by preference.
  const requested = new Negotiator({ headers: { "accept-language": acceptLanguage } })
    .languages()
    .slice(0, MAX_LANGUAGE_RANGES)
    .map(canonicalLocale)
    .filter((tag): tag is string => tag !== undefined);
  if (requested.length === 0) return defaultLocale;
  return match(requested, locales, defaultLocale);
});

/** A BCP 47 tag in canonical form, or undefined for `*`, a malformed tag or an overlong value. */
function canonicalLocale(value: string | undefined): string | undefined {
  if (!value || value.length > MAX_NAME_LENGTH || value === "*") return undefined;
  try {
    return Intl.getCanonicalLocales(value)[0];
  } catch {
    return undefined;
  }
}

function readCookies(header: string | null): Record<string, string | undefined> {
  if (!header) return {};
  try {
    return parseCookies(header);
  } catch {
    return {};
  }
}
