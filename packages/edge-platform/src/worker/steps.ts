import type { RouterContextProvider } from "react-router";
import type { PlatformConfig } from "../config.server";
import type { RequestReporting } from "../errors/request-errors";
import type { WorkerEnv } from "../platform-env";
import type { Visitor } from "../visitor/visitor";

/** What every step of the Worker sees about a request besides the request itself. */
export type StepContext = {
  readonly url: URL;
  readonly env: WorkerEnv;
  readonly ctx: ExecutionContext;
  /** The parsed, checked configuration (config.server.ts), once per isolate. */
  readonly config: PlatformConfig;
  /** How this request's errors and spans are reported; set by the reporting step, none without a DSN. */
  readonly reporting?: RequestReporting;
  /** The visitor's language, writing direction and time zone; set by the visitor step (visitor/visitor.ts). */
  readonly visitor?: Visitor;
  /**
   * The SharedPages entrypoint only: whom a copy for everyone is rendered for (its props' locale, no time
   * zone: visitor/visitor.ts, sharedVisitor); unset when its props name no locale of the product.
   */
  readonly sharedVisitor?: Visitor;
  /** React Router's context for this request (the request context loaders and the renderer read); set by the routerContext step. */
  readonly routerContext?: RouterContextProvider;
};

/** The rest of the list after a step; a step may hand it another request (a shared page's) or context. */
export type Next = (request: Request, context: StepContext) => Promise<Response>;

/** One step of an entrypoint of the Worker (packages/edge-platform/src/worker/app.ts): answers, or hands the request on to `next`. */
export type Step = (request: Request, context: StepContext, next: Next) => Promise<Response> | Response;

/** The steps as one function, built once per isolate; the last step must answer. */
export function runSteps(steps: readonly Step[]): Next {
  const end: Next = () => Promise.reject(new Error("The Worker's last step handed the request on."));
  return steps.reduceRight<Next>(
    (next, step) => async (request, context) => step(request, context, next),
    end,
  );
}
