/**
 * Origins other than the app's own that may submit forms and actions (SPEC C6), e.g. a preview host.
 * Exact origins only (`https://preview.example.com`), no wildcards. One list feeds both checks: the
 * Worker's (workers/same-origin.ts) and React Router's own `allowedActionOrigins` (react-router.config.ts).
 */
export const EXTRA_ACTION_ORIGINS: readonly string[] = [];
