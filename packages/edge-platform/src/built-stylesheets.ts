/// <reference path="./virtual-modules.d.ts" />
import { INLINE_STYLESHEETS as BUILT } from "virtual:edge-platform/inline-stylesheets";

/**
 * Stylesheets inlined in the document (packages/edge-platform/docs/decisions/022-inline-critical-css.md): the first paint needs them,
 * and a `<style>` in the HTML costs no request. The strict policy allows each by the SHA-256 of its text,
 * computed when the build is made (vite/built-stylesheets-module.ts): the text is the same in every page of a build,
 * so one hash serves pages rendered per request, pre-rendered pages and the edge cache's copies alike.
 */

/** A build's stylesheets by the URL the browser would fetch them from: their text and its base64 SHA-256. */
export type InlineStylesheets = Readonly<Record<string, { readonly text: string; readonly sha256: string }>>;

/**
 * The browser build's stylesheets as the Worker's build received them (vite/built-stylesheets-module.ts): empty in
 * the browser's own bundle and in `npm run dev`, so no stylesheet's text is ever in the JavaScript a browser loads.
 */
export const INLINE_STYLESHEETS: InlineStylesheets = BUILT;
