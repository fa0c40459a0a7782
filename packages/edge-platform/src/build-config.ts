/// <reference path="./build-config.d.ts" />
import type { LocaleSettings, PlatformTexts } from "./visitor/visitor";

/**
 * The product's choices as the build hands them to the platform (the platform's Vite plugin, vite/product-choices.ts, defines them from
 * app/product.config.ts), so platform code never imports product code. Undefined outside a build (unit
 * tests): then nothing is static and no other origin may post.
 */

/** The routes whose pages are pre-rendered (contract C5 "static"): one entry per route, not per page. */
export const STATIC_ROUTE_IDS: ReadonlySet<string> = new Set(import.meta.env.PLATFORM_STATIC_ROUTE_IDS);

/**
 * The `assets.run_worker_first` rules that send static pages' HTML to the Worker (vite/static-routes.ts): one
 * per static route. The Worker serves those paths from the assets with the page's policy.
 */
export const STATIC_PAGE_ROUTING_RULES: readonly string[] =
  import.meta.env.PLATFORM_STATIC_PAGE_ROUTING_RULES ?? [];

/** Origins other than the app's own that may post to actions (contract C6). */
export const EXTRA_ACTION_ORIGINS: ReadonlySet<string> = new Set(
  import.meta.env.PLATFORM_EXTRA_ACTION_ORIGINS,
);

/**
 * The product's locales, its default first, and the time zone where neither visitor nor edge says
 * (product.config.ts `LOCALES`, `DEFAULT_TIME_ZONE`; visitor/visitor.ts). Outside a build: English, UTC.
 */
export const LOCALE_SETTINGS: LocaleSettings = import.meta.env.PLATFORM_LOCALE_SETTINGS ?? {
  locales: ["en"],
  defaultLocale: "en",
  defaultTimeZone: "UTC",
};

/**
 * The product's translations of the platform's own texts, by locale (visitor/texts.ts; English is built in).
 * The Worker's bundle only: a page carries its own language's (PlatformDocument), so no language's texts
 * weigh on every visitor's first load.
 */
export const PLATFORM_TEXT_TRANSLATIONS: Readonly<Record<string, Partial<PlatformTexts>>> = import.meta.env
  .SSR
  ? (import.meta.env.PLATFORM_TEXTS ?? {})
  : {};

/**
 * The period (seconds) of each Rate Limiting binding (`[[ratelimits]]` in the deploy configuration), by
 * binding name: what a refused client is told to wait (limits/rate-limit.ts). The binding cannot be asked.
 */
export const RATE_LIMIT_PERIODS: Readonly<Record<string, number>> =
  import.meta.env.PLATFORM_RATE_LIMIT_PERIODS ?? {};
