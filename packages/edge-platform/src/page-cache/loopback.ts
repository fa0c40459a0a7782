import {
  type LocaleSettings,
  localeDirection,
  MAX_NAME_LENGTH,
  type Visitor,
  validTimeZone,
} from "../visitor/visitor.ts";

/**
 * What the Worker's two entrypoints tell each other (packages/edge-platform/docs/caching.md, "Shared pages"):
 * the default entrypoint, the gateway, decides the visitor and hands every request whose answer may be shared
 * to the `SharedPages` entrypoint, in front of which Workers Cache stands keyed by the path and query and the
 * call's `ctx.props`. Pure functions, for the Worker and the tests alike.
 */

/**
 * The request header carrying the visitor the gateway decided (locale and time zone, as JSON) to the
 * `SharedPages` entrypoint, which renders the visitor's own answer with it (their zone included). The gateway
 * always sets it, replacing whatever a client sent; a named entrypoint is reachable only through the Worker's
 * own `ctx.exports` (or a service binding), never from the internet. It is no part of the cache's key: a copy
 * for everyone is rendered from the URL and the props alone, never from it.
 */
export const VISITOR_HEADER = "x-edge-platform-visitor";

/**
 * The `SharedPages` entrypoint's `ctx.props`, part of Workers Cache's key: the negotiated locale, so a page
 * is stored once per language the product declares (not once per `Accept-Language` spelling).
 */
export type SharedPagesProps = { locale: string };

/** The props of the call for this visitor: their negotiated locale, nothing else of theirs. */
export function sharedPagesProps(visitor: Visitor): SharedPagesProps {
  return { locale: visitor.locale };
}

/** The props as the entrypoint received them, checked: a locale the product declares, or undefined. */
export function checkedSharedPagesProps(
  props: unknown,
  { locales }: Pick<LocaleSettings, "locales">,
): SharedPagesProps | undefined {
  if (typeof props !== "object" || props === null) return undefined;
  const { locale } = props as { locale?: unknown };
  return typeof locale === "string" && locales.includes(locale) ? { locale } : undefined;
}

/** The visitor as the gateway hands it on (VISITOR_HEADER): the direction follows from the locale. */
export function visitorHeaderValue(visitor: Visitor): string {
  return JSON.stringify({ locale: visitor.locale, timeZone: visitor.timeZone });
}

/** Longer than any value visitorHeaderValue writes (two names of at most MAX_NAME_LENGTH and the JSON). */
const MAX_VISITOR_HEADER_LENGTH = 4 * MAX_NAME_LENGTH;

/**
 * The visitor of VISITOR_HEADER, checked again as if it came from anywhere: a locale the product declares,
 * a zone the runtime knows (or none); undefined for anything else (the entrypoint then decides the visitor
 * from the request itself).
 */
export function visitorFromHeader(value: string | null, { locales }: LocaleSettings): Visitor | undefined {
  if (!value || value.length > MAX_VISITOR_HEADER_LENGTH) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { locale, timeZone } = parsed as { locale?: unknown; timeZone?: unknown };
  if (typeof locale !== "string" || !locales.includes(locale)) return undefined;
  const zone = timeZone === null ? null : validTimeZone(timeZone);
  if (zone === undefined) return undefined;
  return { locale, direction: localeDirection(locale), timeZone: zone };
}
