// First: it asks for the navigation code as the first load's modules start to run (navigation-code.ts).
import "./navigation/navigation-code";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { catchEarlyClicks, navigationGate } from "./navigation/navigation-client";
import { navigationReporting, reactErrorCallbacks, reportRouterError } from "./reporting/browser-reporting";
import { keyNewHistoryEntry } from "./scroll-restoration";

// Before the router reads the entry: the document's script left a new entry unkeyed (scroll-restoration.tsx).
keyNewHistoryEntry();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      {/* Router updates as plain renders, not transitions: React renders a navigation's page in one go instead
          of yielding at low priority, so it shows sooner on a busy CPU
          (packages/edge-platform/docs/decisions/013-navigation-without-transitions.md has the runs). */}
      <HydratedRouter
        onError={reportRouterError}
        instrumentations={[navigationGate, navigationReporting]}
        useTransitions={false}
      />
    </StrictMode>,
    reactErrorCallbacks,
  );
  // After hydrateRoot, so that it runs after React's own listener on the document (navigation-client.ts).
  catchEarlyClicks();
});
