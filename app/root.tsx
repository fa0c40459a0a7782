import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import stylesHref from "./app.css?url";
import { ErrorPage, errorMeta } from "./components/error-page";
import { SiteNav } from "./components/site-nav";
import { browserMonitoringConfig } from "./platform/monitoring/browser-config.server";
import { EARLY_ERRORS_SCRIPT } from "./platform/monitoring/early-errors";
import { useRouteMonitoring } from "./platform/monitoring/use-route-monitoring";
import { ROUTE_ANNOUNCER_ID } from "./platform/navigation/navigation-client";
import { useNavigationPlatform } from "./platform/navigation/use-navigation-platform";
import { useNonce } from "./platform/nonce";
import { getRequestPlatform } from "./platform/request-context";

export const meta: Route.MetaFunction = ({ error }) => (error ? errorMeta(error) : []);

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesHref },
];

// The root's boundary renders every error page: a refusal thrown with headers (a 405's Allow) keeps them.
export const headers: Route.HeadersFunction = ({ errorHeaders, loaderHeaders }) =>
  errorHeaders ?? loaderHeaders;

// Pre-rendered pages run this at build time: their browser config is the build's (README, "Error reporting").
export function loader({ context }: Route.LoaderArgs) {
  return { monitoring: browserMonitoringConfig(getRequestPlatform(context).config.monitoring) };
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const monitoring = useRouteLoaderData<typeof loader>("root")?.monitoring ?? null;
  useRouteMonitoring(monitoring);
  useNavigationPlatform();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Development only: Vite marks the styles it injects with this nonce (security-headers.ts). */}
        {import.meta.env.DEV ? <meta property="csp-nonce" nonce={nonce} /> : null}
        {monitoring ? (
          // The script runs once, from the server's HTML. The browser renders it empty, so its text is not
          // in the JavaScript bundle (issue 6 budget); hydration leaves the parsed element as it is.
          <script
            nonce={nonce}
            suppressHydrationWarning
            // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours (early-errors.ts)
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? EARLY_ERRORS_SCRIPT : "" }}
          />
        ) : null}
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <SiteNav />
        {/* The skip link's target; browsers start the next Tab inside it, no tabindex needed. */}
        <main id="main">{children}</main>
        {/* Empty until a client navigation: the navigation platform writes the new page's title here. */}
        <p id={ROUTE_ANNOUNCER_ID} role="status" className="visually-hidden" />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
