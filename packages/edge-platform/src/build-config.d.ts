/** Defined by the platform's Vite plugin (vite/product-choices.ts) from app/product.config.ts (see build-config.ts). */
interface ImportMetaEnv {
  readonly PLATFORM_LOCALE_SETTINGS: import("./visitor/visitor").LocaleSettings | undefined;
  readonly PLATFORM_TEXTS:
    | Readonly<Record<string, Partial<import("./visitor/visitor").PlatformTexts>>>
    | undefined;
  readonly PLATFORM_STATIC_ROUTE_IDS: readonly string[] | undefined;
  readonly PLATFORM_STATIC_PAGE_ROUTING_RULES: readonly string[] | undefined;
  readonly PLATFORM_EXTRA_ACTION_ORIGINS: readonly string[] | undefined;
  readonly PLATFORM_RATE_LIMIT_PERIODS: Readonly<Record<string, number>> | undefined;
}
