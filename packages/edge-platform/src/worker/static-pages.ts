import { LOCALE_SETTINGS, STATIC_PAGE_ROUTING_RULES } from "../build-config";
import { INLINE_STYLESHEETS } from "../built-stylesheets";
import { scanDocument } from "../document-scan";
import { hashedDocumentHeaders, type PolicyOptions } from "../headers";
import { withHeaderChanges } from "../http/response-headers";
import { routingRulesMatcher } from "../routing-rules";
import { isPageDataPath } from "../single-fetch";
import { localeCopyPath } from "../visitor/locale-copies";

/**
 * Pre-rendered pages, served by the Worker (packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md): the
 * `run_worker_first` rules of the static routes send their HTML here; the Worker answers with the asset
 * as built (its ETag and caching kept, 304s included) and the page's policy, which allows the page's own
 * inline scripts by hash. The hashes depend only on the page's bytes, so they are computed once per page
 * and isolate and remembered by the asset's ETag (a content hash).
 */

const isStaticPagePath = routingRulesMatcher(STATIC_PAGE_ROUTING_RULES);

/** Whether the request is for the HTML of a pre-rendered page (not in `npm run dev`, which renders all). */
export function isStaticPageRequest(request: Request, url: URL): boolean {
  if (import.meta.env.DEV) return false;
  return (request.method === "GET" || request.method === "HEAD") && isStaticPagePath(url.pathname);
}

/** Policies by ETag; bounded, so an isolate's memory does not grow with the number of pages. */
const MAX_REMEMBERED_PAGES = 1_000;
const headersByETag = new Map<string, Record<string, string> | null>();

/**
 * The asset with its page headers; `undefined` when no page was pre-rendered at this path (a dynamic page
 * of a static route, or a 404), or none in `locale`: then the app renders it. `locale` names one of the
 * product's other languages, whose copy the build wrote apart (visitor/locale-copies.ts); such a page varies
 * with the visitor's language, and says so (`Vary`).
 */
export async function serveStaticPage(
  request: Request,
  assets: Fetcher,
  policy: PolicyOptions = {},
  locale?: string,
): Promise<Response | undefined> {
  // A path with a trailing slash or page data has no copy: the default's asset (its redirect, its data).
  const copy = locale === undefined ? undefined : localeCopyRequest(request, locale);
  let assetRequest = copy ?? request;
  let asset = await assets.fetch(assetRequest);
  if (copy && asset.status === 404) {
    await asset.body?.cancel();
    assetRequest = request;
    asset = await assets.fetch(request);
    // A page built in the default language only: rendered for the visitor, in theirs. A public file
    // under a static route's glob passes on below as it is.
    if (isHtml(asset)) return undefined;
  }
  if (asset.status === 404) return undefined;
  // Redirects (`/about/` -> `/about`) and refusals pass through as the assets answer them.
  if (asset.status !== 200 && asset.status !== 304) return asset;
  const etag = asset.headers.get("ETag")?.replace(/^W\//, "");
  let headers = etag === undefined ? undefined : headersByETag.get(etag);
  let body: BodyInit | null = asset.body;
  if (headers === undefined) {
    if (!isHtml(asset) && asset.status === 200) {
      // Page data under a glob rule, or a public file: passed on as it is, never read.
      headers = null;
    } else if (asset.status === 200 && request.method === "GET") {
      const html = await asset.text();
      headers = await hashedDocumentHeaders(await scanDocument(html), policy, INLINE_STYLESHEETS);
      body = html;
    } else {
      // A 304 or a HEAD has no body to hash: read the page once, unconditionally.
      const page = await assets.fetch(new Request(assetRequest.url));
      headers =
        page.ok && isHtml(page)
          ? await hashedDocumentHeaders(await scanDocument(await page.text()), policy, INLINE_STYLESHEETS)
          : null;
    }
    if (etag !== undefined) remember(etag, headers);
  }
  const changes = Object.entries(headers ?? {});
  if (headers && copies) {
    const vary = asset.headers.get("Vary");
    changes.push(["Vary", vary ? `${LOCALE_VARY}, ${vary}` : LOCALE_VARY]);
  }
  return withHeaderChanges(new Response(body, asset), changes);
}

/** Whether the product has pages in other languages than the default (then every pre-rendered page varies). */
const copies = LOCALE_SETTINGS.locales.length > 1;
/** What a pre-rendered page's language depends on (visitor/negotiation.ts): the locale cookie, then the browser's languages. */
const LOCALE_VARY = "Cookie, Accept-Language";

/** The request for the copy of a page in another language, as the assets serve it; none for a path that has none. */
function localeCopyRequest(request: Request, locale: string): Request | undefined {
  const { pathname } = new URL(request.url);
  if (isPageDataPath(pathname) || (pathname !== "/" && pathname.endsWith("/"))) return undefined;
  return new Request(new URL(localeCopyPath(pathname, locale), request.url), request);
}

/** Only HTML gets page headers; anything else a static route's path serves (`.data`, an image) passes on. */
function isHtml(response: Response): boolean {
  return response.headers.get("Content-Type")?.startsWith("text/html") ?? false;
}

function remember(etag: string, headers: Record<string, string> | null): void {
  if (headersByETag.size >= MAX_REMEMBERED_PAGES) {
    const oldest = headersByETag.keys().next().value;
    if (oldest !== undefined) headersByETag.delete(oldest);
  }
  headersByETag.set(etag, headers);
}
