import { ErrorPage, errorMeta, PlatformDocument } from "edge-platform/react";
import { platformRootData } from "edge-platform/server";
import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import stylesHref from "./app.css?url";
import { SiteNav } from "./components/site-nav";
import iconHref from "./favicon.svg?url&no-inline";

export const meta: Route.MetaFunction = ({ error }) => (error ? errorMeta(error) : []);

// packages/edge-platform/docs/decisions/018-paint-first.md. The icon is a built, fingerprinted file (/assets/, cached immutable): Chromium
// asks for the icon again after every client navigation, and this way the memory cache answers.
// `no-inline`: a data: URL would put the icon in the first-load JavaScript. The stylesheet is not a link:
// the document inlines it (`stylesheets` below, packages/edge-platform/docs/decisions/022-inline-critical-css.md).
export const links: Route.LinksFunction = () => [{ rel: "icon", href: iconHref, type: "image/svg+xml" }];

// The root's boundary renders every error page: a refusal thrown with headers (a 405's Allow) keeps them.
export const headers: Route.HeadersFunction = ({ errorHeaders, loaderHeaders }) =>
  errorHeaders ?? loaderHeaders;

export function loader({ context }: Route.LoaderArgs) {
  return platformRootData(context);
}

export function Layout({ children }: { children: ReactNode }) {
  const reporting = useRouteLoaderData<typeof loader>("root")?.reporting ?? null;
  return (
    <PlatformDocument reporting={reporting} header={<SiteNav />} stylesheets={[stylesHref]}>
      {children}
    </PlatformDocument>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
