/**
 * Pre-rendered pages in each of the product's languages (docs/i18n.md, "Pre-rendered pages"): React Router
 * pre-renders every static page once, in the default language; the platform's build then renders each again
 * for every other declared locale (vite/locale-copies.ts) and writes it under this directory of the assets,
 * where the Worker's pre-rendered-pages step picks the visitor's (worker/app.ts). Copies are never served at
 * their own address: a `run_worker_first` rule sends that directory to the Worker, which has no route there.
 */
export const LOCALE_COPIES_DIRECTORY = "__locales";

/** The `run_worker_first` rule that keeps the copies' own addresses from being served as assets. */
export const LOCALE_COPIES_ROUTING_RULE = `/${LOCALE_COPIES_DIRECTORY}/*`;

/**
 * Where the asset of a page's copy in `locale` is served from by the assets binding (`/__locales/ja/about`,
 * `/__locales/ja` for `/`): pre-rendered as `index.html` in that directory, as React Router writes a page.
 */
export function localeCopyPath(pathname: string, locale: string): string {
  return `/${LOCALE_COPIES_DIRECTORY}/${locale}${pathname === "/" ? "" : pathname}`;
}
