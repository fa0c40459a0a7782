import { ErrorPage, errorMeta, PlatformDocument } from "edge-platform/react";
import { platformRootData } from "edge-platform/server";
import type { ReactNode } from "react";
import {
  type LoaderFunctionArgs,
  type MetaFunction,
  Outlet,
  useRouteError,
  useRouteLoaderData,
} from "react-router";

import iconHref from "./favicon.svg?url&no-inline";

export const links = () => [{ rel: "icon", href: iconHref, type: "image/svg+xml" }];

export const meta: MetaFunction = ({ error }) => (error ? errorMeta(error) : [{ title: "My product" }]);

export function loader({ context }: LoaderFunctionArgs) {
  return platformRootData(context);
}

export function Layout({ children }: { children: ReactNode }) {
  const reporting = useRouteLoaderData<typeof loader>("root")?.reporting ?? null;
  return <PlatformDocument reporting={reporting}>{children}</PlatformDocument>;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
