import { type FocusEvent, type MouseEvent, type TouchEvent, useEffect, useRef } from "react";
import { Link, type LinkProps, useHref } from "react-router";
import { prefetchPage } from "../platform/navigation/navigation-client";

/**
 * When to prefetch the target (docs/contract.md C5), all through the same bounded queue:
 * none; intent (hover for 100 ms, focus, touch); viewport (scrolled into view); render (on mount).
 */
export type PrefetchMode = "none" | "intent" | "viewport" | "render";

type AppLinkProps = Omit<LinkProps, "prefetch"> & { prefetch?: PrefetchMode };

/** Hovering this long reads as intent; a pointer passing over a list does not. */
const INTENT_DELAY_MS = 100;

export function AppLink({
  prefetch = "intent",
  onMouseEnter,
  onMouseLeave,
  onFocus,
  onTouchStart,
  ...props
}: AppLinkProps) {
  const href = useHref(props.to, { relative: props.relative });
  const anchor = useRef<HTMLAnchorElement>(null);
  const intentTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (prefetch === "render") prefetchPage(href);
  }, [prefetch, href]);

  useEffect(() => {
    const element = anchor.current;
    if (prefetch !== "viewport" || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        prefetchPage(href);
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [prefetch, href]);

  useEffect(() => () => clearTimeout(intentTimer.current), []);

  const onIntent = prefetch === "intent";
  return (
    <Link
      {...props}
      ref={anchor}
      prefetch="none"
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        onMouseEnter?.(event);
        if (onIntent) intentTimer.current = setTimeout(() => prefetchPage(href), INTENT_DELAY_MS);
      }}
      onMouseLeave={(event: MouseEvent<HTMLAnchorElement>) => {
        onMouseLeave?.(event);
        clearTimeout(intentTimer.current);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        onFocus?.(event);
        if (onIntent) prefetchPage(href);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        onTouchStart?.(event);
        if (onIntent) prefetchPage(href);
      }}
    />
  );
}
