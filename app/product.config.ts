import { GLOSSARY } from "./data/glossary.ts";

/**
 * The product's choices the platform is configured with, in one place. Read by the build
 * (react-router.config.ts, vite.config.ts), which hands them to the platform; the platform
 * (packages/edge-platform/src/, workers/) never imports product code (a lint rule in biome.json keeps it so).
 * The layout and navigation around every page are the product's too: app/root.tsx.
 */

/**
 * Pages pre-rendered at build time and served as static files: "static" in the contract (C5), their
 * prefetched data reused for 300 s. Every other page is rendered per request ("dynamic").
 */
export const STATIC_PAGES: readonly string[] = [
  "/",
  "/about",
  "/glossary",
  ...GLOSSARY.map((entry) => `/glossary/${entry.slug}`),
];

/**
 * Origins other than the app's own that may submit forms and actions (C6), e.g. a preview host.
 * Exact origins only (`https://preview.example.com`), no wildcards.
 */
export const EXTRA_ACTION_ORIGINS: readonly string[] = [];

/**
 * The most JavaScript (bytes, gzip -9) a first visit to `/` may load (tests/worker/first-load-budget.test.ts).
 * Unset, the platform's default applies (135 KiB: edge-platform/testing's DEFAULT_FIRST_LOAD_BUDGET_BYTES).
 */
export const FIRST_LOAD_BUDGET_BYTES: number | undefined = undefined;
