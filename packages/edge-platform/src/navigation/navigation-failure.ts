import { useSyncExternalStore } from "react";

/**
 * A navigation React Router could not carry out because route code threw outside every loader and component
 * (a route's `shouldRevalidate`, for one): React Router rejects the navigation itself, so the click does
 * nothing, no error boundary renders and the URL stays (issue 42). The navigation instrumentation
 * (navigation-client.ts) records it here with the location it failed on, and the document
 * (document.tsx) shows the client-side error page there instead of the page, as for any uncaught exception
 * (packages/edge-platform/docs/contract.md C1), until the next navigation.
 */

export type NavigationFailure = { error: unknown; locationKey: string };

let failure: NavigationFailure | undefined;
const listeners = new Set<() => void>();

export function recordNavigationFailure(error: unknown, locationKey: string): void {
  failure = { error, locationKey };
  for (const listener of listeners) listener();
}

/** The navigation failure on the location shown (its key), if any. */
export function useNavigationFailure(locationKey: string): NavigationFailure | undefined {
  const current = useSyncExternalStore(subscribe, () => failure, noFailure);
  return current?.locationKey === locationKey ? current : undefined;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function noFailure(): undefined {
  return undefined;
}
