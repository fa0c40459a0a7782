/**
 * `edge-platform/server`: what a route's loader and action use (server only; the `.server` name makes React
 * Router refuse it in the browser's bundle). Listed with one line each in the package's README.
 */
export { type D1SessionIntent, openVisitorD1Session, type VisitorD1Session } from "../d1-session.server.ts";
export { recordServerError, type ServerErrorScope } from "../errors/server-error.server.ts";
export { assertFailureRoutesEnabled } from "../failure-routes.server.ts";
export { readFormData } from "../http/form-data.server.ts";
export type { WriteLimit } from "../limits/write-limits.server.ts";
export {
  FRESH_PARAMETER,
  type PagePurge,
  type PurgeTargets,
  purgePages,
} from "../page-cache/purge.server.ts";
export type { BrowserReportingConfig } from "../reporting/browser-config.server.ts";
export { getRequestContext, getVisitor, type RequestContext } from "../request-context.ts";
export { type PlatformRootData, platformRootData } from "../root-data.server.ts";
