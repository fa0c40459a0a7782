/**
 * The pages pre-rendered at build time (React Router `prerender`). This list is the single source of
 * truth for "static" in SPEC C5: every other page is dynamic (rendered per request).
 */
export const STATIC_PAGE_PATHS = ["/", "/about"] as const;
