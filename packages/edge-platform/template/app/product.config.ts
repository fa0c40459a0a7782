/** Paths pre-rendered at build time ("static" pages): served to everyone from the assets, with their own policy. */
export const STATIC_PAGES: readonly string[] = ["/"];

/** Exact origins besides the app's own that may post to actions (a preview host, say). */
export const EXTRA_ACTION_ORIGINS: readonly string[] = [];
