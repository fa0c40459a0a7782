/**
 * What the product's `import ... from "react-router"` gets
 * (packages/edge-platform/docs/decisions/020-react-router-prefetch-prop.md): React Router itself, with `Link` and `NavLink` giving
 * their documented `prefetch` prop to the platform's bounded queue (packages/edge-platform/docs/contract.md C5) instead of React
 * Router's `<PrefetchPageLinks>`, whose `<link>` tags the browser fetches at its own pace, outside the 5 in
 * flight, into a cache the router never reads. The build resolves the product's `react-router` to this
 * module (packages/edge-platform/src/vite/platform-links.ts); this module's own `react-router` is the real one.
 *
 * Each wrapper renders React Router's own component without `prefetch` (so React Router prefetches nothing)
 * and states the mode on the anchor as `data-prefetch`, which the platform reads
 * (packages/edge-platform/src/navigation/link-prefetch.ts). Server and browser render the same markup.
 */
import type { ComponentProps } from "react";
import { Link as RouterLink, NavLink as RouterNavLink } from "react-router";
import type { LinkPrefetchMode } from "./link-prefetch";

export * from "react-router";

/** The props of a `Link` or `NavLink` that decide its prefetch. */
export type LinkPrefetchProps = {
  prefetch?: LinkPrefetchMode;
  reloadDocument?: boolean;
  "data-prefetch"?: string;
};

/**
 * The anchor's `data-prefetch` for a link's props; undefined is the platform's default (once visible).
 * - A `data-prefetch` written on the link wins: the platform's own spelling (plain `<a>` elements use it).
 * - `reloadDocument`: never, whatever `prefetch` says, since a document load does not use prefetched data.
 * - `prefetch`: `"intent"` and `"render"` as React Router means them, `"viewport"` the default, `"none"` the
 *   opt-out. Written out, `"none"` is an opt-out: the wrapper sees the prop, where the anchor could not tell
 *   it from React Router's default.
 */
export function anchorPrefetch({
  prefetch,
  reloadDocument,
  "data-prefetch": dataPrefetch,
}: LinkPrefetchProps): string | undefined {
  if (dataPrefetch !== undefined) return dataPrefetch;
  if (reloadDocument) return "none";
  return prefetch === "viewport" ? undefined : prefetch;
}

/** React Router's `Link`, prefetched by the platform (its `ref` is a prop, React 19, passed on). */
export function Link({ prefetch, ...props }: ComponentProps<typeof RouterLink>) {
  return <RouterLink {...props} data-prefetch={anchorPrefetch({ ...props, prefetch })} />;
}

/** React Router's `NavLink`, prefetched by the platform. */
export function NavLink({ prefetch, ...props }: ComponentProps<typeof RouterNavLink>) {
  return <RouterNavLink {...props} data-prefetch={anchorPrefetch({ ...props, prefetch })} />;
}
