import { createPath, type DataRouter } from "react-router";

/**
 * packages/edge-platform/docs/contract.md C3, C4, C9: leaving a client navigation for a full browser navigation to its target, the same
 * kind of history step the client navigation was taking.
 */
export type FullNavigation = { href: string; kind: "push" | "replace" | "pop" };

/**
 * The navigation now loading `page`, if there is one: fetchers, revalidations and submissions are not
 * navigations to fall back from. Read from the router's public state (`navigation.historyAction`).
 */
export function navigationLoading(router: DataRouter, page: string): FullNavigation | undefined {
  const { navigation } = router.state;
  if (navigation.state !== "loading" || navigation.formMethod || !navigation.location) return undefined;
  if (trimSlashes(navigation.location.pathname) !== trimSlashes(page)) return undefined;
  const kind =
    navigation.historyAction === "POP" ? "pop" : navigation.historyAction === "REPLACE" ? "replace" : "push";
  return { href: createPath(navigation.location), kind };
}

/**
 * Does the full navigation; the page is unloading, so the returned promise never settles (nothing
 * after it may run). Back/forward have already moved the browser's history entry: reloading loads it.
 */
export function navigateFully({ href, kind }: FullNavigation): Promise<never> {
  if (kind === "replace") window.location.replace(href);
  else if (kind === "pop") window.location.reload();
  else window.location.assign(href);
  return new Promise<never>(() => {});
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
