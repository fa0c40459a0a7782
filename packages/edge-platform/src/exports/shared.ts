/** `edge-platform/shared`: what both the browser and the server may use (constants, checks of user text). */
export {
  PREFETCH_CONCURRENCY,
  PREFETCH_STALE_MS_DYNAMIC,
  PREFETCH_STALE_MS_STATIC,
  REQUEST_BODY_TIMEOUT_MS,
  ROUTE_LOADING_TIMEOUT_MS,
} from "../constants.ts";
export { combineHeaders } from "../http/combine-headers.ts";
export { isWriteLimited, type WriteLimited, writeLimitedMessage } from "../limits/write-limited.ts";
export { hasDirectionOverrides, isInvisible } from "../user-text.ts";
export { defineTexts, ENGLISH_TEXTS, fillText, type PlatformTexts } from "../visitor/texts.ts";
export { LOCALE_COOKIE, TIME_ZONE_COOKIE, type Visitor } from "../visitor/visitor.ts";
