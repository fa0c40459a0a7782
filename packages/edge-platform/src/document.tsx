import { Component, type ErrorInfo, type ReactNode, useEffect, useState } from "react";
import { Links, Meta, Scripts, useLocation } from "react-router";
import { INLINE_STYLESHEETS } from "./built-stylesheets";
import platformStylesheet from "./document.css?url";
import { ErrorPage } from "./errors/error-page";
import { ROUTE_ANNOUNCER_ID, useNavigationInstall } from "./navigation/navigation-client";
import { navigationFailures } from "./navigation/navigation-failures";
import { useNonce } from "./nonce";
import type { BrowserReportingConfig } from "./reporting/browser-config.server";
import { reportRouterError } from "./reporting/browser-reporting";
import { EARLY_ERRORS_SCRIPT } from "./reporting/early-errors";
import { useRouteReporting } from "./reporting/use-route-reporting";
import { ScrollRestoration } from "./scroll-restoration";
import { PLATFORM_TEXTS_META, platformTexts, platformTranslation } from "./visitor/texts";
import { rememberTimeZone, useVisitor } from "./visitor/use-visitor";

export type PlatformDocumentProps = {
  /**
   * The root loader's `reporting` (platformRootData): null when reporting is off. The browser keeps the
   * document's: page-data answers leave it out (undefined or null after a navigation changes nothing).
   */
  reporting: BrowserReportingConfig | null | undefined;
  /** The product's header and navigation, after the skip link and before `<main>`. */
  header?: ReactNode;
  /**
   * The stylesheets every page needs for its first paint (`import href from "./app.css?url"`): inlined as
   * `<style>` in a production build, linked in `npm run dev` (packages/edge-platform/docs/decisions/022-inline-critical-css.md). A
   * route's own stylesheet stays a route import (`import "./page.css"`), which React Router links and removes.
   * The platform's own (document.css: the skip link and the route announcer) comes first, so these can restyle it.
   */
  stylesheets?: readonly string[];
  children: ReactNode;
};

/**
 * The document every page is rendered in, with what the platform needs in it: the CSP nonce on every script
 * and preload, browser error reporting from the first script on (packages/edge-platform/docs/contract.md C7), the navigation
 * platform (C2-C5), a skip link, the `<main>` it targets and the live region client navigations are
 * announced in. The product's root layout renders it with its own header (app/root.tsx). Its language,
 * writing direction and the platform's texts are the visitor's (useVisitor; packages/edge-platform/docs/i18n.md).
 */
export function PlatformDocument({ reporting, header, stylesheets = [], children }: PlatformDocumentProps) {
  const nonce = useNonce();
  const visitor = useVisitor();
  const texts = platformTexts(visitor.locale);
  const translation = platformTranslation(visitor.locale);
  useEffect(() => rememberTimeZone(visitor.timeZone), [visitor.timeZone]);
  reporting = documentReporting(reporting);
  useRouteReporting(reporting);
  useNavigationInstall();
  // A failure of the document's own parts (a route's `meta`, the product's header) in the browser: it
  // happens outside every route's error boundary, where React Router would replace the whole page with its
  // built-in one. The page shows the platform's client-side error page instead, until the next navigation.
  const { key } = useLocation();
  const [failure, setFailure] = useState<{ key: string; error: unknown }>();
  const failed = failure?.key === key ? failure : undefined;
  // A navigation React Router rejected shows the error page where the visitor was (navigation-failures.ts).
  useEffect(() => {
    navigationFailures.listener = setFailure;
  }, []);
  const onError = (error: unknown) => setFailure({ key, error });
  return (
    <html
      lang={visitor.locale}
      dir={visitor.direction}
      // What the browser hydrates with (useVisitor): the zone and instant times were rendered in.
      data-time-zone={visitor.timeZone ?? undefined}
      data-rendered-at={visitor.renderedAt ?? undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The platform's texts in this page's language, for the browser (visitor/texts.ts). */}
        {translation ? <meta name={PLATFORM_TEXTS_META} content={JSON.stringify(translation)} /> : null}
        {[platformStylesheet, ...stylesheets].map((href) => (
          <InlineStylesheet key={href} href={href} />
        ))}
        {/* Development only: Vite marks the styles it injects with this nonce (headers.ts). */}
        {import.meta.env.DEV ? <meta property="csp-nonce" nonce={nonce} /> : null}
        {reporting ? (
          // The script runs once, from the server's HTML. The browser renders it empty, so its text is not
          // in the JavaScript bundle (packages/edge-platform/docs/PERFORMANCE.md, "First load"); hydration leaves the parsed
          // element as it is.
          <script
            nonce={nonce}
            suppressHydrationWarning
            // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours (early-errors.ts)
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? EARLY_ERRORS_SCRIPT : "" }}
          />
        ) : null}
        <DocumentPart resetKey={key} onError={onError} fallback={<title>Application error</title>}>
          <Meta />
        </DocumentPart>
        <Links nonce={nonce} />
      </head>
      <body>
        <a href="#main" className="skip-link">
          {texts.skipToContent}
        </a>
        <DocumentPart resetKey={key} onError={onError} fallback={null}>
          {header}
        </DocumentPart>
        {/* The skip link's target; browsers start the next Tab inside it, no tabindex needed. */}
        <main id="main">{failed ? <ErrorPage error={failed.error} /> : children}</main>
        {/* Empty until a client navigation: the navigation code writes the new page's title here. */}
        <p id={ROUTE_ANNOUNCER_ID} role="status" className="visually-hidden" />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

type DocumentPartProps = {
  children: ReactNode;
  fallback: ReactNode;
  /** The location key: a new page tries the part again (not a remount: the header keeps its state). */
  resetKey: string;
  onError(error: unknown): void;
};

/**
 * An error boundary around one part of the document, reported as the page's failure. On the server a throw
 * still fails the render (React's server renderer has no error boundaries), which answers the server-side
 * error page with its digest.
 */
class DocumentPart extends Component<DocumentPartProps, { failed: boolean; resetKey: string }> {
  override state = { failed: false, resetKey: this.props.resetKey };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  static getDerivedStateFromProps(props: DocumentPartProps, state: { resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }
  override componentDidCatch(error: unknown, errorInfo: ErrorInfo) {
    // The page failed, as when a route's boundary shows the error page: reported as unhandled.
    reportRouterError(error, { errorInfo });
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * A stylesheet the first paint needs, as a `<style>` React hoists to the start of `<head>` (ahead of the
 * modulepreload links it hoists) and never removes. Its text comes from the Worker's build
 * (built-stylesheets.ts); the browser renders the same element empty, and React adopts the server's
 * `<style data-href>` when it hydrates (react-dom's `acquireResource` looks it up by href) without reading or
 * replacing its text, so the stylesheet is neither fetched nor carried in the JavaScript. Each has its own
 * precedence (its href), so each is one element whose text is the built file, allowed by that file's hash
 * (built-stylesheets.ts).
 */
function InlineStylesheet({ href }: { href: string }) {
  // `npm run dev` has no built stylesheets: Vite serves them, and updates them in place.
  if (import.meta.env.DEV) return <link rel="stylesheet" href={href} precedence={href} />;
  const text = import.meta.env.SSR ? INLINE_STYLESHEETS[href]?.text : "";
  if (text === undefined)
    throw new Error(
      `${href} is not a stylesheet the build could inline: import it with "?url" from a .css file, and see the ` +
        `build's warnings (a stylesheet whose text has "<style" cannot be inlined)`,
    );
  return (
    <style href={href} precedence={href}>
      {text}
    </style>
  );
}

/** The browser configuration the document was served with, once hydrated (client only; see below). */
let hydratedReporting: BrowserReportingConfig | null | undefined;

/**
 * The document's reporting configuration. On the server, each render is a document: the root loader's
 * value. In the browser, the first render (hydration) reads the document's, and it stays for the
 * document's life: it is constant per deployment, and page-data answers do not carry it
 * (platformRootData). A Layout remounted after a navigation (a root error) keeps it too.
 */
function documentReporting(
  reporting: BrowserReportingConfig | null | undefined,
): BrowserReportingConfig | null {
  if (import.meta.env.SSR) return reporting ?? null;
  if (hydratedReporting === undefined) hydratedReporting = reporting ?? null;
  return hydratedReporting;
}
