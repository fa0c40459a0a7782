import { createContext, type RouterContextProvider } from "react-router";
import type { PlatformConfig } from "./config.server";
import type { RequestErrors } from "./errors/request-errors";
import type { CachePurger } from "./page-cache/cache-purger";
import type { WorkerEnv } from "./platform-env";
import type { RouteTracer } from "./reporting/route-tracer";
import type { Visitor } from "./visitor/visitor";

/** What the Worker hands to every request's loaders, actions and renderer. */
export type RequestContext = {
  /** The Worker's bindings (the product's database, for one); the platform's own settings are in `config`. */
  env: WorkerEnv;
  /** The parsed, checked configuration (config.server.ts). */
  config: PlatformConfig;
  /** The visitor's language, writing direction and time zone (visitor/visitor.ts); `getVisitor` reads it. */
  visitor: Visitor;
  /**
   * A page-data (`.data`) request: the browser already holds the document, and what is constant for a
   * document (platformRootData) stays out of the answer.
   */
  pageData: boolean;
  /** Per-request CSP nonce for the inline scripts React Router renders. */
  nonce: string;
  /** This request's server errors: recorded once per request, reported the way this request is (server-error.server.ts). */
  errors: RequestErrors;
  /** Set when the request is traced: its route handlers' spans and its transaction's name (route-tracing.server.ts). */
  tracer: RouteTracer | undefined;
  /**
   * `ctx.waitUntil` for work that outlives the response; a rejection is logged and reported like any server
   * error of the request (nobody else would see it).
   */
  waitUntil(promise: Promise<unknown>): void;
  /** Purges the shared copies in Workers Cache (page-cache/purge.server.ts); undefined with no cache in front. */
  cachePurger: CachePurger | undefined;
  /**
   * Set when this request's write was refused for its client's limit (limits/write-limits.server.ts): the
   * Worker sends it as `Retry-After` with the answer.
   */
  retryAfterSeconds?: number;
};

export const requestContext = createContext<RequestContext>();

export function getRequestContext(context: Readonly<RouterContextProvider>): RequestContext {
  return context.get(requestContext);
}

/** The visitor of this request (their locale, writing direction and time zone): for loaders and actions. */
export function getVisitor(context: Readonly<RouterContextProvider>): Visitor {
  return context.get(requestContext).visitor;
}
