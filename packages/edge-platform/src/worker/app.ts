import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { EXTRA_ACTION_ORIGINS } from "../build-config";
import { missingCacheHeaders } from "../cache-headers";
import { type PlatformConfig, PlatformConfigError, platformConfig } from "../config.server";
import { MONITORING_TUNNEL_PATH } from "../constants";
import { isControlFlow } from "../errors/control-flow";
import { createRequestErrors, type RequestReporting } from "../errors/request-errors";
import { recordServerError } from "../errors/server-error.server";
import {
  answerRequest,
  withHeadersFailureAnswer,
  withServerErrorDigests,
} from "../errors/with-error-digests.server";
import { missingAllowHeader } from "../http/allow";
import { withHeaderChanges } from "../http/response-headers";
import { clientOverLimit } from "../limits/rate-limit";
import { withWriteLimits } from "../limits/write-limits.server";
import { type RequestPlatform, requestPlatform } from "../request-context";
import { missingSecurityHeaders } from "../security-headers";
import { isPageDataPath } from "../single-fetch";
import { canonicalRedirect } from "./canonical-redirect";
import { unknownRouteIds } from "./data-requests";
import { httpsRedirect } from "./https-redirect";
import { forwardEnvelope, tunnelSettings } from "./monitoring-tunnel";
import { isCrossSiteMutation } from "./same-origin";
import { answerSharedPages } from "./shared-pages";
import { isStaticPageRequest, serveStaticPage } from "./static-pages";
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

/** The app itself; `reporting` is how this request is reported (none without a DSN). */
const app = {
  // Any Request: a shared page is rendered from its URL alone (packages/edge-platform/src/worker/shared-pages.ts), with no `cf`.
  async fetch(
    request: Request,
    env: Env,
    ctx: ExecutionContext,
    config: PlatformConfig,
    reporting?: RequestReporting,
  ) {
    const context = new RouterContextProvider();
    let nonce: string | undefined;
    const platform: RequestPlatform = {
      env,
      config,
      pageData: isPageDataPath(new URL(request.url).pathname),
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
    context.set(requestPlatform, platform);
    const response = await answerRequest(handleAppRequest, answerHeadersFailure, { request, context });
    // A write refused for its client's limit: React Router drops an action's headers on a page whose route
    // has no `headers` export, so the wait is stated here, on the document and the page data alike.
    if (platform.retryAfterSeconds !== undefined && response.status === 429) {
      return withHeaderChanges(response, [["Retry-After", String(platform.retryAfterSeconds)]]);
    }
    return response;
  },
};

type MonitoredApp = {
  fetch(request: Request, env: Env, ctx: ExecutionContext, config: PlatformConfig): Promise<Response>;
};

/** The app with error reporting, loaded on the first request that has a DSN configured. */
let monitoredApp: Promise<MonitoredApp> | undefined;
function withReporting(): Promise<MonitoredApp> {
  monitoredApp ??= import("./with-monitoring").then(({ withMonitoring }) => withMonitoring(app));
  return monitoredApp;
}

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
    return withPlatformHeaders(await routeRequest(request, env, ctx, config));
  },
} satisfies ExportedHandler<Env>;

/**
 * The one door: https, the cross-site gate, the tunnel, unknown `_routes`, the canonical spelling of a page's
 * path, pre-rendered pages, shared pages, then the app (with or without reporting).
 */
async function routeRequest(
  request: Request<unknown, IncomingRequestCfProperties>,
  env: Env,
  ctx: ExecutionContext,
  config: PlatformConfig,
): Promise<Response> {
  const url = new URL(request.url);
  const toHttps = httpsRedirect(url);
  if (toHttps) return toHttps;
  const { pathname } = url;
  // packages/edge-platform/docs/contract.md C6: refused before any action code runs (React Router's own check stays behind it), and
  // before the tunnel reads or forwards anything: a page on another site must not spend the Sentry quota
  // through its visitors' browsers (a text/plain post needs no CORS preflight).
  if (isCrossSiteMutation(request, EXTRA_ACTION_ORIGINS)) {
    return plainText(403, "Forbidden: this request comes from another site.");
  }
  // The tunnel comes before the rest and outside tracing: reports about reports would loop (packages/edge-platform/docs/contract.md C7).
  if (pathname === MONITORING_TUNNEL_PATH || pathname === `${MONITORING_TUNNEL_PATH}/`) {
    const settings = tunnelSettings(config);
    if (!settings) return new Response("Not Found", { status: 404 });
    return forwardEnvelope(request, settings, () => clientOverLimit(env, "MONITORING_RATE_LIMIT", request));
  }
  const unknownRoutes = unknownRouteIds(url, routeIds);
  if (unknownRoutes.length > 0) {
    return plainText(400, `Bad Request: _routes names no route of this app (${unknownRoutes.join(", ")}).`);
  }
  // One page, one address: before the pre-rendered pages (served by exact path) and anything shared (Workers
  // Cache keys by the URL), so no other spelling renders a page or stores a copy of it (packages/edge-platform/docs/caching.md).
  const toCanonical = canonicalRedirect(request, url);
  if (toCanonical) return toCanonical;
  // Pre-rendered pages: the asset as built, with the page's policy (packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md).
  if (isStaticPageRequest(request, url)) {
    // A self-hosted Sentry's origin in connect-src, as on pages rendered per request (config.server.ts).
    const page = await serveStaticPage(request, env.ASSETS, {
      reportOrigin: config.monitoring?.directOrigin,
    });
    if (page) return page;
  }
  // Answers a route declared shareable leave as Workers Cache may store them (packages/edge-platform/docs/caching.md).
  return answerSharedPages(request, url, {
    render: (toRender) => renderApp(toRender, env, ctx, config),
    policy: { reportOrigin: config.monitoring?.directOrigin },
  });
}

/** The app renders; without a DSN, reporting is off and the SDK is not even loaded. */
async function renderApp(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  config: PlatformConfig,
): Promise<Response> {
  if (!config.monitoring) return app.fetch(request, env, ctx, config);
  return (await withReporting()).fetch(request, env, ctx, config);
}

/**
 * Pages get their security headers from the renderer (it holds the nonce); every other answer gets the base
 * set and a policy under which nothing runs (packages/edge-platform/src/security-headers.ts). Everything the Worker
 * answers is kept out of shared caches unless it says otherwise (packages/edge-platform/src/cache-headers.ts). A 405
 * says what is allowed (packages/edge-platform/src/http/allow.ts).
 */
function withPlatformHeaders(response: Response): Response {
  const missing = Object.entries({
    ...missingSecurityHeaders(response.headers),
    ...missingCacheHeaders(response.headers),
    ...missingAllowHeader(response.status, response.headers),
  });
  if (missing.length === 0) return response;
  // In place where the headers may change; responses from fetch() or Response.redirect() are copied.
  return withHeaderChanges(response, missing);
}

/** 128 random bits; created per request (Workers forbid random values at global scope). */
function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function plainText(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
