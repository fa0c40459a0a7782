import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { PlatformTexts } from "../visitor/texts.ts";
import { type LocaleSettings, validTimeZone } from "../visitor/visitor.ts";

/**
 * Which app the build builds: the product (`app/`, the default) or another app laid out the same way, such as
 * the platform's test fixture (`APP_DIRECTORY=packages/edge-platform/fixture/app`, `npm run build:fixture`). Read by
 * react-router.config.ts (its `appDirectory`) and vite.config.ts.
 */
export const APP_DIRECTORY = process.env.APP_DIRECTORY ?? "app";

/** What a product tells the platform, in its `product.config.ts` (app/product.config.ts says what each means). */
export type ProductConfig = {
  /** Paths pre-rendered at build time: "static" pages (packages/edge-platform/docs/contract.md C5). */
  STATIC_PAGES: readonly string[];
  /** Exact origins besides the app's own that may post to actions (packages/edge-platform/docs/contract.md C6). */
  EXTRA_ACTION_ORIGINS: readonly string[];
  /**
   * The most JavaScript (bytes, gzip -9) a first visit to `/` may load: the product's tests hold it to this
   * (DEFAULT_FIRST_LOAD_BUDGET_BYTES when unset).
   */
  FIRST_LOAD_BUDGET_BYTES?: number;
  /**
   * The languages the product's pages are written in, as BCP 47 tags, the default first (the language of
   * a visitor whose browser asks for none of them). Unset: English only.
   */
  LOCALES?: readonly string[];
  /** The time zone (IANA) for a visitor neither the edge nor their browser has told: UTC when unset. */
  DEFAULT_TIME_ZONE?: string;
  /** The platform's own texts in the product's other languages (English is built in; any text left out stays English). */
  PLATFORM_TEXTS?: Readonly<Record<string, Partial<PlatformTexts>>>;
};

/**
 * The first-load budget a product gets unless it sets its own (gzip): under what the Next.js 16 anchor loads
 * for the same page, with room for the product's own code beyond what React, React Router and the platform
 * need (packages/edge-platform/docs/PERFORMANCE.md, "First load", has those figures).
 */
export const DEFAULT_FIRST_LOAD_BUDGET_BYTES = 135 * 1024;

/** The app under build: its directory, its product configuration and its route map (`routes.ts`). */
export type AppUnderBuild = ProductConfig & {
  appDirectory: string;
  routes: RouteConfigEntry[];
  /** LOCALES and DEFAULT_TIME_ZONE, checked (visitor/visitor.ts). */
  localeSettings: LocaleSettings;
};

/** The app's product configuration (`product.config.ts`) and route map (`routes.ts`). */
export async function loadAppUnderBuild(): Promise<AppUnderBuild> {
  const appDirectory = resolve(APP_DIRECTORY);
  const load = (file: string) => import(/* @vite-ignore */ pathToFileURL(resolve(appDirectory, file)).href);
  const [product, routes] = await Promise.all([load("product.config.ts"), load("routes.ts")]);
  return {
    appDirectory,
    STATIC_PAGES: product.STATIC_PAGES,
    EXTRA_ACTION_ORIGINS: exactOrigins(product.EXTRA_ACTION_ORIGINS),
    LOCALES: product.LOCALES,
    DEFAULT_TIME_ZONE: product.DEFAULT_TIME_ZONE,
    PLATFORM_TEXTS: product.PLATFORM_TEXTS,
    localeSettings: localeSettings(product.LOCALES, product.DEFAULT_TIME_ZONE, product.PLATFORM_TEXTS),
    routes: routes.default,
  };
}

/**
 * The product's locales, checked when the build loads them: canonical BCP 47 tags (`en`, `pt-BR`), no
 * repeats, at least one; a default time zone the runtime knows; translations only for declared locales.
 * A mistake fails the build with the name of the setting.
 */
export function localeSettings(
  locales: readonly string[] = ["en"],
  defaultTimeZone = "UTC",
  texts: Readonly<Record<string, unknown>> = {},
): LocaleSettings {
  if (locales.length === 0) throw new Error("LOCALES: declare at least one locale (the default first)");
  for (const locale of locales) {
    let canonical: string | undefined;
    try {
      canonical = Intl.getCanonicalLocales(locale)[0];
    } catch {}
    if (canonical !== locale)
      throw new Error(
        `LOCALES: ${JSON.stringify(locale)} is not a BCP 47 tag in canonical form${canonical ? ` (write ${canonical})` : ""}`,
      );
  }
  if (new Set(locales).size !== locales.length) throw new Error("LOCALES: a locale is declared twice");
  const timeZone = validTimeZone(defaultTimeZone);
  if (timeZone === undefined)
    throw new Error(`DEFAULT_TIME_ZONE: ${JSON.stringify(defaultTimeZone)} is not an IANA time zone name`);
  const stray = Object.keys(texts).filter((locale) => !locales.includes(locale));
  if (stray.length > 0)
    throw new Error(`PLATFORM_TEXTS: ${stray.join(", ")} not among LOCALES (${locales.join(", ")})`);
  return { locales: [...locales], defaultLocale: locales[0] as string, defaultTimeZone: timeZone };
}

/**
 * The product's extra allowed origins, checked when the build loads them: each must be an exact origin
 * (`https://preview.example.com`), as `isCrossSiteMutation` compares them, never a pattern or a URL.
 */
export function exactOrigins(origins: readonly string[]): string[] {
  return origins.map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || parsed.origin !== origin || parsed.hostname.includes("*")) {
      throw new Error(
        `EXTRA_ACTION_ORIGINS: ${origin} is not an exact origin such as https://preview.example.com`,
      );
    }
    return origin;
  });
}
