import { GLOSSARY } from "../data/glossary.ts";

/**
 * The pages pre-rendered at build time (React Router `prerender`). This list is the single source of
 * truth for "static" in SPEC C5: the build pre-renders exactly these, and the browser reuses their
 * prefetched data for the static stale time. Every other page is dynamic (rendered per request).
 */
export const STATIC_PAGE_PATHS: readonly string[] = [
  "/",
  "/about",
  "/glossary",
  ...GLOSSARY.map((entry) => `/glossary/${entry.slug}`),
];

const STATIC_PAGES = new Set(STATIC_PAGE_PATHS);

export function isStaticPage(pathname: string): boolean {
  return STATIC_PAGES.has(pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);
}
