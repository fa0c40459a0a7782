import { Link, type LinkProps } from "react-router";
import type { LinkPrefetchMode } from "../platform/navigation/link-prefetch";

/**
 * When the target is prefetched (docs/contract.md C5), all through the platform's bounded queue: "viewport" (the
 * default: once visible, as Next.js does), "render" (on mount), "intent" (hover for 100 ms, focus, touch)
 * or "none" (the opt-out). Intent moves any of the first three ahead in the queue. The navigation platform
 * reads the mode from `data-prefetch` (app/platform/navigation/link-prefetch.ts), so this component adds
 * no code to the first load.
 */
export type PrefetchMode = LinkPrefetchMode;

type AppLinkProps = Omit<LinkProps, "prefetch"> & { prefetch?: PrefetchMode };

export function AppLink({ prefetch = "viewport", ...props }: AppLinkProps) {
  return <Link {...props} data-prefetch={prefetch} />;
}
