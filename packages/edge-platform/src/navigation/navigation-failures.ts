/**
 * A navigation React Router could not carry out because route code threw outside every loader and component
 * (a route's `shouldRevalidate`): React Router rejects the navigation itself, so the click would do nothing,
 * no error boundary renders and the URL stays (issue 42). The navigation gate (navigation-gate.ts) tells the
 * document's listener, which shows the client-side error page on the location the visitor was on
 * (document.tsx), as for any uncaught exception (packages/edge-platform/docs/contract.md C1).
 */
export const navigationFailures: { listener?: (failure: { key: string; error: unknown }) => void } = {};
