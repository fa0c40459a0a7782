/**
 * The site's pages, as its navigation lists them (app/components/site-nav.tsx), in order; each label is a key of
 * `navigationTexts` (app/texts.ts). Deleting a page takes its entry out here too, and nothing else points at it:
 * the navigation controls on /now choose their pages from this list.
 */
export const NAV_LINKS = [
  { to: "/", label: "home" },
  { to: "/about", label: "about" },
  { to: "/now", label: "now" },
  { to: "/items", label: "items" },
  { to: "/glossary", label: "glossary" },
  { to: "/messages", label: "messages" },
] as const;

export type ControlTargets = { prefetch?: string; push?: string; replace?: string };

/**
 * The pages the navigation controls on `current` act on: the site's other pages, the home page left out (Back
 * returns there), in the navigation's order: the first is prefetched, the second pushed, the third replaces the
 * current entry. A control with no page left to act on is not shown.
 */
export function controlTargets(current: string): ControlTargets {
  const [prefetch, push, replace] = NAV_LINKS.map(({ to }) => to as string).filter(
    (to) => to !== "/" && to !== current,
  );
  return { prefetch, push, replace };
}
