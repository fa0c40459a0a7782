import { INLINE_STYLESHEETS as BUILT } from "virtual:edge-platform/inline-stylesheets";
import type { InlineStylesheets } from "./inline-stylesheets.ts";

/**
 * The browser build's stylesheets as the Worker's build received them (vite/built-stylesheets-module.ts): empty in
 * the browser's own bundle and in `npm run dev`, so no stylesheet's text is ever in the JavaScript a browser loads.
 */
export const INLINE_STYLESHEETS: InlineStylesheets = BUILT;
