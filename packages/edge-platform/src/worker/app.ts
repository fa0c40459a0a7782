import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { EXTRA_ACTION_ORIGINS, LOCALE_SETTINGS } from "../build-config";
import { type PlatformConfig, PlatformConfigError, platformConfig } from "../config.server";
import { MONITORING_TUNNEL_PATH } from "../constants";
import { isControlFlow } from "../errors/control-flow";
import { createRequestErrors } from "../errors/request-errors";
import { recordServerError } from "../errors/server-error.server";
import {
  answerRequest,
  withHeadersFailureAnswer,
  withServerErrorDigests,
} from "../errors/with-error-digests.server";
import { withPlatformHeaders, withRetryAfter } from "../headers";
import { clientOverLimit } from "../limits/rate-limit";
import { withWriteLimits } from "../limits/write-limits.server";
import { type RequestContext, requestContext } from "../request-context";
import { isPageDataPath } from "../single-fetch";
import { visitorOf } from "../visitor/negotiation";
import { sharedVisitor } from "../visitor/visitor";
import { canonicalRedirect } from "./canonical-redirect";
import { unknownRouteIds } from "./data-requests";
import { httpsRedirect } from "./https-redirect";
import { forwardEnvelope, tunnelSettings } from "./monitoring-tunnel";
import { isCrossSiteMutation } from "./same-origin";
import { answerSharedPages } from "./shared-pages";
import { isStaticPageRequest, serveStaticPage } from "./static-pages";
import { type Next, runSteps, type Step, type StepContext } from "./steps";
import { workersCachePurger } from "./workers-cache";

const routeIds = new Set(Object.keys(serverBuild.routes));

// Created once per isolate: React Router derives its route tables here, not on every request. Writes are
// counted before any action code runs (limits/write-limits.server.ts); inside the error digests, so a
// failure there is a digest-only 500 like any other.
const guardedBuild = withServerErrorDigests(withWriteLimits(serverBuild));
const handleAppRequest = createRequestHandler(guardedBuild, import.meta.env.MODE);
// The second answer to a request whose route's `headers` threw; made when first needed.
let handleHeadersFailure: ReturnType<typeof createRequestHandler> | undefined;
function answerHeadersFailure() {
  handleHeadersFailure ??= createRequestHandler(withHeadersFailureAnswer(guardedBuild), import.meta.env.MODE);
  return handleHeadersFailure;
}

/**
 * The Worker, as the list of steps every request goes through, in order. Each step answers or hands the
 * request to the next (`steps.ts`); the last one renders. packages/edge-platform/docs/ARCHITECTURE.md shows
 * the same list.
 */
const STEPS: readonly Step[] = [
  // Whatever answers below leaves with the platform's headers (headers.ts): the base set, a policy under
  // which nothing runs for anything but a page, per-request caching unless a route shared it, a 405's Allow.
  async (request, context, next) => withPlatformHeaders(await next(request, context)),
  httpsOnly,
  sameSiteWrites,
  monitoringTunnel,
  knownRouteIds,
  canonicalPath,
  visitor,
  prerenderedPages,
  sharedPages,
  reporting,
  renderApp,
];

const handle = runSteps(STEPS);

export default {
  async fetch(request, env, ctx) {
    let config: PlatformConfig;
    try {
      config = platformConfig(env);
    } catch (error) {
      if (!(error instanceof PlatformConfigError)) throw error;
      // Loud for whoever deploys (the Worker's logs name the variable), opaque for visitors.
      console.error(error.message);
      return withPlatformHeaders(
        plainText(
          500,
          "Internal Server Error: this deployment's configuration is invalid (see the Worker's logs).",
        ),
      );
    }
    return handle(request, { url: new URL(request.url), env, ctx, config });
  },
} satisfies ExportedHandler<Env>;

/** Plain http is redirected to https (not on local hosts). */
function httpsOnly(request: Request, context: StepContext, next: Next) {
  return httpsRedirect(context.url) ?? next(request, context);
}

/**
 * packages/edge-platform/docs/contract.md C6: a write from another site is refused before any action code
 * runs (React Router's own check stays behind it), and before the tunnel reads or forwards anything: a page
 * on another site must not spend the Sentry quota through its visitors' browsers (a text/plain post needs no
 * CORS preflight).
 */
function sameSiteWrites(request: Request, context: StepContext, next: Next) {
  if (isCrossSiteMutation(request, EXTRA_ACTION_ORIGINS)) {
    return plainText(403, "Forbidden: this request comes from another site.");
  }
  return next(request, context);
}

/** The tunnel comes before the rest and outside tracing: reports about reports would loop (contract C7). */
function monitoringTunnel(request: Request, context: StepContext, next: Next) {
  const { pathname } = context.url;
  if (pathname !== MONITORING_TUNNEL_PATH && pathname !== `${MONITORING_TUNNEL_PATH}/`) {
    return next(request, context);
  }
  const settings = tunnelSettings(context.config);
  if (!settings) return new Response("Not Found", { status: 404 });
  return forwardEnvelope(request, settings, () =>
    clientOverLimit(context.env, "MONITORING_RATE_LIMIT", request),
  );
}

/** Page data naming a route this app does not have is a bug or a probe (data-requests.ts). */
function knownRouteIds(request: Request, context: StepContext, next: Next) {
  const unknownRoutes = unknownRouteIds(context.url, routeIds);
  if (unknownRoutes.length > 0) {
    return plainText(400, `Bad Request: _routes names no route of this app (${unknownRoutes.join(", ")}).`);
  }
  return next(request, context);
}

/**
 * One page, one address: before the pre-rendered pages (served by exact path) and anything shared (Workers
 * Cache keys by the URL), so no other spelling renders a page or stores a copy of it (docs/caching.md).
 */
function canonicalPath(request: Request, context: StepContext, next: Next) {
  return canonicalRedirect(request, context.url) ?? next(request, context);
}

/**
 * The visitor's language, writing direction and time zone, decided once (visitor/visitor.ts): their cookies,
 * then `Accept-Language` and the edge's `request.cf.timezone`, then the product's defaults.
 */
function visitor(request: Request, context: StepContext, next: Next) {
  return next(request, { ...context, visitor: visitorOf(request, LOCALE_SETTINGS) });
}

/** Pre-rendered pages: the asset as built, with the page's policy (decisions/010-static-page-csp-at-scale.md). */
async function prerenderedPages(request: Request, context: StepContext, next: Next) {
  if (isStaticPageRequest(request, context.url)) {
    // A self-hosted Sentry's origin in connect-src, as on pages rendered per request (config.server.ts).
    const page = await serveStaticPage(request, context.env.ASSETS, {
      reportOrigin: context.config.reporting?.directOrigin,
    });
    if (page) return page;
  }
  return next(request, context);
}

/**
 * Answers a route declared shareable leave as Workers Cache may store them (docs/caching.md): rendered again
 * by the steps after this one, from the URL alone and for no visitor in particular.
 */
function sharedPages(request: Request, context: StepContext, next: Next) {
  // One copy for every visitor: in the default language for now, no time zone (docs/caching.md, "Visitors").
  const everyone = { ...context, visitor: sharedVisitor(LOCALE_SETTINGS.defaultLocale) };
  return answerSharedPages(request, context.url, {
    render: (toRender) => next(toRender, context),
    renderShared: (toRender) => next(toRender, everyone),
    policy: { reportOrigin: context.config.reporting?.directOrigin },
  });
}

/**
 * With a DSN, the request is reported (reporting.ts, which loads Sentry's SDK on the first such
 * request); without one, reporting is off and the SDK is never loaded.
 */
let reportingModule: Promise<typeof import("./reporting")> | undefined;
async function reporting(request: Request, context: StepContext, next: Next) {
  if (!context.config.reporting) return next(request, context);
  reportingModule ??= import("./reporting");
  return (await reportingModule).reportRequest(request, context, next);
}

/** The last step: React Router renders the page, its data or its action's answer. */
async function renderApp(request: Request, { url, env, ctx, config, reporting, visitor }: StepContext) {
  const context = new RouterContextProvider();
  let nonce: string | undefined;
  const perRequest: RequestContext = {
    env,
    config,
    visitor: visitor ?? visitorOf(request, LOCALE_SETTINGS),
    // The URL the Worker parsed once (a shared page rendered again has the same one).
    pageData: isPageDataPath(url.pathname),
    // Made when first read: a document's renderer reads it, a `.data` request or an action's redirect
    // never does, and 16 random bytes in base64 cost more than the rest of this object.
    get nonce() {
      nonce ??= createNonce();
      return nonce;
    },
    errors: createRequestErrors(reporting?.report),
    cachePurger: workersCachePurger(ctx, env, request),
    tracer: reporting?.tracer,
    waitUntil(promise) {
      // Recorded even when the visitor has gone: this work was meant to finish without them.
      ctx.waitUntil(
        promise.catch((error: unknown) => {
          if (!isControlFlow(error)) recordServerError(error, { request, context });
        }),
      );
    },
  };
  context.set(requestContext, perRequest);
  const response = await answerRequest(handleAppRequest, answerHeadersFailure, { request, context });
  // A write refused for its client's limit says when to try again (limits/write-limits.server.ts).
  if (perRequest.retryAfterSeconds !== undefined && response.status === 429) {
    return withRetryAfter(response, perRequest.retryAfterSeconds);
  }
  return response;
}

/** 128 random bits; created per request (Workers forbid random values at global scope). */
function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function plainText(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
