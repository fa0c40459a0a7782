import { WorkerEntrypoint } from "cloudflare:workers";
import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler, matchRoutes, RouterContextProvider } from "react-router";
import { EXTRA_ACTION_ORIGINS, LOCALE_SETTINGS } from "../build-config";
import { routeTree } from "../canonical-path";
import { type PlatformConfig, PlatformConfigError, platformConfig } from "../config.server";
import { MONITORING_TUNNEL_PATH } from "../constants";
import { isControlFlow } from "../errors/control-flow";
import { createRequestErrors } from "../errors/request-errors";
import { recordServerError } from "../errors/server-error.server";
import {
  headersFailureAnswer,
  renderRequest,
  withHeadersFailureAnswer,
  withServerErrorDigests,
} from "../errors/with-error-digests.server";
import { carriesEdgeCaching, withoutEdgeCaching, withPlatformHeaders, withRetryAfter } from "../headers";
import { clientOverLimit } from "../limits/rate-limit";
import { withWriteLimits } from "../limits/write-limits.server";
import { checkedSharedPagesProps, VISITOR_HEADER, visitorFromHeader } from "../page-cache/loopback";
import { mayShareAnswer, sharedCachePolicy } from "../page-cache/policy";
import type { WorkerEnv } from "../platform-env";
import { getRequestContext, type RequestContext, requestContext } from "../request-context";
import { isPageDataPath, pageOfDataPath } from "../single-fetch";
import { takeLocalCf } from "../visitor/local-cf";
import { memoize } from "../visitor/memo";
import { visitorOf } from "../visitor/negotiation";
import { sharedVisitor } from "../visitor/visitor";
import { canonicalRedirect } from "./canonical-redirect";
import { unknownRouteIds } from "./data-requests";
import { httpsRedirect } from "./https-redirect";
import { forwardEnvelope, tunnelSettings } from "./monitoring-tunnel";
import { isCrossSiteMutation } from "./same-origin";
import {
  answerForRequestOnly,
  answerSharedPages,
  goesToSharedPages,
  rememberCached,
  throughSharedPages,
} from "./shared-pages";
import { isStaticPageRequest, serveStaticPage } from "./static-pages";
import { type Next, runSteps, type Step, type StepContext } from "./steps";
import { localFillProps, workersCachePurger } from "./workers-cache";

const routeIds = new Set(Object.keys(serverBuild.routes));
// The routes as React Router's server matches them, for the route a shared request is for (sharedCopies).
const matchableRoutes = routeTree(serverBuild.routes);

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
 * How both entrypoints end: React Router's context for the request, then the stages around the render that
 * change its answer, outermost first, then the render itself. Function declarations, so hoisted.
 */
const RENDERING: readonly Step[] = [routerContext, writeLimitRetryAfter, headersFailure, renderApp];

/**
 * The Worker's default entrypoint, the gateway, as the list of steps every request goes through, in order.
 * Each step answers or hands the request to the next (`steps.ts`); the last one renders. A request whose
 * answer may be shared goes from the shared-pages step to the `SharedPages` entrypoint below, in front of
 * which Workers Cache stands. packages/edge-platform/docs/ARCHITECTURE.md shows the same lists.
 */
const STEPS: readonly Step[] = [
  // Whatever answers below leaves with the platform's headers (headers.ts): the base set, a policy under
  // which nothing runs for anything but a page, per-request caching unless a route shared it, a 405's Allow;
  // and without the edge's caching headers: only the SharedPages entrypoint's answers are ever stored.
  async (request, context, next) => withoutEdgeCaching(withPlatformHeaders(await next(request, context))),
  httpsOnly,
  sameSiteWrites,
  monitoringTunnel,
  knownRouteIds,
  canonicalPath,
  visitor,
  prerenderedPages,
  sharedPages,
  reporting,
  ...RENDERING,
];

/**
 * The `SharedPages` entrypoint's steps: the visitor's request, rendered for them, or for everyone when the
 * route declared its answer shareable (docs/caching.md). Its answers leave with the platform's headers, so a
 * stored copy is whole, and an answer without a `Cache-Control` of its own says `private, no-store` before the
 * cache in front could give it a lifetime of its own (2 hours for a 200).
 */
const SHARED_PAGES_STEPS: readonly Step[] = [
  async (request, context, next) => withPlatformHeaders(await next(request, context)),
  sharedCopies,
  reporting,
  ...RENDERING,
];

const handle = runSteps(STEPS);
const handleSharedPages = runSteps(SHARED_PAGES_STEPS);

export default {
  async fetch(request, env, ctx) {
    // Under `npm run dev` only (a development build; the deployed Worker has no such code): a visitor from
    // anywhere, as the local server allows (visitor/local-cf.ts; docs/ARCHITECTURE.md).
    if (import.meta.env.DEV) request = withLocalCf(request);
    // Under `npm run dev` only, the Workers Cache emulation's fill of the SharedPages entrypoint (the local
    // server's goes to that entrypoint itself: workers-cache.ts).
    const fill = localFillProps(request, env, ctx);
    if (fill) return callSharedPages(fill.request, fill.props, env, ctx);
    const config = checkedConfig(env);
    if (config instanceof Response) return config;
    return handle(request, { url: new URL(request.url), env, ctx, config });
  },
} satisfies ExportedHandler<WorkerEnv>;

/**
 * Pages that may be shared, one copy per language (docs/caching.md, "Shared pages"): reached only through the
 * gateway's `ctx.exports.SharedPages({ props: { locale } })`, never from the internet, so Workers Cache in front
 * of it keys each copy by the page's path and query and the visitor's negotiated locale. A product's Worker
 * re-exports it beside the default (`export { default, SharedPages } from "edge-platform/worker"`).
 */
export class SharedPages extends WorkerEntrypoint<WorkerEnv> {
  override fetch(request: Request): Promise<Response> | Response {
    // Locally only, the Workers Cache emulation's fill, called again with the props it names (workers-cache.ts).
    const fill = localFillProps(request, this.env, this.ctx);
    if (fill) return callSharedPages(fill.request, fill.props, this.env, this.ctx);
    return answerSharedPagesRequest(request, this.env, this.ctx, this.ctx.props);
  }
}

/**
 * The SharedPages entrypoint's answer: the visitor the gateway decided (VISITOR_HEADER, checked again; the
 * request's own otherwise), the copy for everyone in the props' locale, without a zone.
 */
function answerSharedPagesRequest(
  request: Request,
  env: WorkerEnv,
  ctx: ExecutionContext,
  props: unknown,
): Promise<Response> | Response {
  const config = checkedConfig(env);
  if (config instanceof Response) return config;
  const locale = checkedSharedPagesProps(props, LOCALE_SETTINGS)?.locale;
  const headers = new Headers(request.headers);
  const given = visitorFromHeader(headers.get(VISITOR_HEADER), LOCALE_SETTINGS);
  headers.delete(VISITOR_HEADER);
  const own = new Request(request, { headers });
  return handleSharedPages(own, {
    url: new URL(own.url),
    env,
    ctx,
    config,
    visitor: given ?? visitorOf(own, LOCALE_SETTINGS),
    ...(locale !== undefined && { sharedVisitor: sharedVisitor(locale) }),
  });
}

/**
 * The SharedPages entrypoint, called as the gateway calls it: through `ctx.exports`, in front of which Workers
 * Cache stands. A Worker whose main module does not export it (a product's workers/app.ts that re-exports only
 * the default) answers in place, with nothing stored: said once in the logs.
 */
let missingEntrypointLogged = false;
function callSharedPages(
  request: Request,
  props: unknown,
  env: WorkerEnv,
  ctx: ExecutionContext,
): Promise<Response> | Response {
  const exports = ctx.exports as unknown as
    | { SharedPages?: (options: { props: unknown }) => Fetcher }
    | undefined;
  const entrypoint = exports?.SharedPages;
  if (entrypoint) return entrypoint({ props }).fetch(request);
  if (!missingEntrypointLogged) {
    missingEntrypointLogged = true;
    console.error(
      "The Worker's main module does not export SharedPages (workers/app.ts: " +
        'export { default, SharedPages } from "edge-platform/worker"): shared pages are not cached.',
    );
  }
  return answerSharedPagesRequest(request, env, ctx, props);
}

/**
 * Under `npm run dev`: `x-local-cf-timezone` and `x-local-cf-country` become the request's `request.cf`
 * values, taken out of its headers, as the local server's host guard does for `npm start` and the tests.
 * @cloudflare/vite-plugin gives the Worker a `request.cf` of its own, which the rest keeps.
 */
function withLocalCf<R extends Request>(request: R): R {
  if (![...request.headers.keys()].some((name) => name.startsWith("x-local-cf-"))) return request;
  const headers = new Headers(request.headers);
  const location = takeLocalCf(headers);
  const cf = (request as { cf?: Record<string, unknown> }).cf;
  return new Request(request, { headers, ...(location && { cf: { ...cf, ...location } }) }) as R;
}

/** The configuration, parsed once per isolate; a 500 naming nothing when it is invalid (the log names it). */
function checkedConfig(env: WorkerEnv): PlatformConfig | Response {
  try {
    return platformConfig(env);
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
}

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

/**
 * Pre-rendered pages: the asset as built in the visitor's language, with the page's policy
 * (decisions/010-static-page-csp-at-scale.md; docs/i18n.md, "Pre-rendered pages"). A page not built in their
 * language (a path of a static route that was not pre-rendered) is rendered for them by the steps after.
 */
async function prerenderedPages(request: Request, context: StepContext, next: Next) {
  if (isStaticPageRequest(request, context.url)) {
    // A self-hosted Sentry's origin in connect-src, as on pages rendered per request (config.server.ts).
    const page = await serveStaticPage(
      request,
      context.env.ASSETS,
      { reportOrigin: context.config.reporting?.directOrigin },
      staticPageLocale(context),
    );
    if (page) return page;
  }
  return next(request, context);
}

/** The language of the pre-rendered copy a visitor gets: theirs, or undefined for the default's (React Router's own). */
function staticPageLocale(context: StepContext): string | undefined {
  const locale = context.visitor?.locale;
  return locale === LOCALE_SETTINGS.defaultLocale ? undefined : locale;
}

/**
 * The gateway's step for shared pages (docs/caching.md): a GET or HEAD for a route the isolate knows to share
 * goes to the SharedPages entrypoint with the visitor decided above, through Workers Cache (which answers a
 * stored copy of the page in the visitor's language without running it) or, locally, its emulation. Any
 * other is rendered here, for the visitor; if that answer is one the cache may keep, the route is remembered
 * and the request goes the same way (its render here was the one a first miss costs: worker/shared-pages.ts,
 * `goesToSharedPages`). An answer that may not be shared is rendered here, and nothing of it is shared.
 */
async function sharedPages(request: Request, context: StepContext, next: Next) {
  if (!mayShareAnswer(request)) return answerForRequestOnly(await next(request, context));
  const throughCache = () =>
    throughSharedPages(
      request,
      context.visitor ?? visitorOf(request, LOCALE_SETTINGS),
      context.env,
      (loopback, props) => callSharedPages(loopback, props, context.env, context.ctx),
    );
  const route = answeringRoute(context.url.pathname);
  if (goesToSharedPages(route)) return throughCache();
  const response = await next(request, context);
  const shared = sharedCachePolicy(response.status, response.headers) !== undefined;
  if (!shared && !carriesEdgeCaching(response.headers)) return answerForRequestOnly(response);
  await response.body?.cancel();
  rememberCached(route.route, shared);
  return throughCache();
}

/**
 * The SharedPages entrypoint's step: answers a route declared shareable leave as Workers Cache may store them,
 * rendered again by the steps after this one from the URL alone, for everyone who negotiates the same
 * language (the props' locale, no time zone: visitor/visitor.ts, sharedVisitor). Without a locale in the
 * props nothing is shared.
 */
async function sharedCopies(request: Request, context: StepContext, next: Next) {
  const everyone = context.sharedVisitor;
  if (!everyone) return answerForRequestOnly(await next(request, context));
  return answerSharedPages(request, context.url, {
    render: (toRender) => next(toRender, context),
    renderShared: (toRender) => next(toRender, { ...context, visitor: everyone }),
    policy: { reportOrigin: context.config.reporting?.directOrigin },
    ...answeringRoute(context.url.pathname),
  });
}

type AnsweringRoute = { route: string; declaresSharing: boolean };

/**
 * The leaf route that answers a path, and whether for its page data (`"routes/item"`, `"routes/item (data)"`),
 * and whether that route's `headers` export declares a shared answer without any data. Remembered by path,
 * bounded (visitor/memo.ts): React Router's `matchRoutes` ranks and compiles every route's pattern on each
 * call, and the gateway asks for every GET (its shared-pages step).
 */
const answeringRoute = memoize(1_000, (pathname: string): AnsweringRoute => {
  const data = isPageDataPath(pathname);
  const page = (data && pageOfDataPath(pathname, serverBuild.basename)) || pathname;
  const leaf = decodable(page)
    ? (matchRoutes(matchableRoutes, page, serverBuild.basename)?.at(-1)?.route.id ?? "")
    : "";
  return { route: data ? `${leaf} (data)` : leaf, declaresSharing: declaresSharing(leaf) };
});

/** By route id, once per isolate (worker/shared-pages.ts, `declaresSharing`). */
const declaredSharing = new Map<string, boolean>();

/**
 * Whether a route's own `headers` export (the module as built, not the guarded one, so nothing is recorded)
 * says its answer is shared when called without any data: no loader or action headers, no error. One that
 * throws or needs data says nothing, and the route's first miss renders the visitor's answer first.
 */
function declaresSharing(routeId: string): boolean {
  let declared = declaredSharing.get(routeId);
  if (declared === undefined) {
    declared = false;
    const headers = serverBuild.routes[routeId]?.module.headers;
    try {
      const empty = {
        loaderHeaders: new Headers(),
        parentHeaders: new Headers(),
        actionHeaders: new Headers(),
      };
      const value = typeof headers === "function" ? headers({ ...empty, errorHeaders: undefined }) : headers;
      declared = value !== undefined && sharedCachePolicy(200, new Headers(value)) !== undefined;
    } catch {}
    declaredSharing.set(routeId, declared);
  }
  return declared;
}

/** React Router matches a path it cannot decode as it is, and warns in the logs: such a path is no route's. */
function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
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

/**
 * What loaders, actions, `headers` and the renderer read of this request (request-context.ts), in React
 * Router's context for it: the steps after this one render with it.
 */
function routerContext(request: Request, stepContext: StepContext, next: Next) {
  const { url, env, ctx, config, reporting, visitor } = stepContext;
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
  return next(request, { ...stepContext, routerContext: context });
}

/**
 * A write refused for its client's limit says when to try again: the refusal (limits/write-limits.server.ts)
 * notes the seconds in the request's context, because React Router keeps no action header on a page without
 * a `headers` export; headers.ts writes the header.
 */
async function writeLimitRetryAfter(request: Request, context: StepContext, next: Next) {
  const response = await next(request, context);
  const seconds = context.routerContext && getRequestContext(context.routerContext).retryAfterSeconds;
  return seconds !== undefined && response.status === 429 ? withRetryAfter(response, seconds) : response;
}

/**
 * A route whose `headers` export threw: React Router answered an empty 500, so the request is answered again,
 * by the error page with the digest of that failure's log line (errors/with-error-digests.server.ts).
 */
async function headersFailure(request: Request, context: StepContext, next: Next) {
  const response = await next(request, context);
  if (!context.routerContext) return response;
  return (
    (await headersFailureAnswer(response, answerHeadersFailure, {
      request,
      context: context.routerContext,
    })) ?? response
  );
}

/**
 * The last step: React Router renders the page, its data or its action's answer, with the build as guarded
 * once per isolate (`guardedBuild` above: every route handler's failure a digest, writes counted first).
 */
function renderApp(request: Request, { routerContext }: StepContext) {
  if (!routerContext) throw new Error("The render step needs the routerContext step before it.");
  return renderRequest(handleAppRequest, { request, context: routerContext });
}

/** 128 random bits; created per request (Workers forbid random values at global scope). */
function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function plainText(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
