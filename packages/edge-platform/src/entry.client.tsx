import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { navigationHold } from "./navigation/navigation-client";
import { navigationReporting, reactErrorCallbacks, reportRouterError } from "./reporting/browser-reporting";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      {/* Router updates as plain renders, not transitions: a client navigation shows its page 30-40% sooner
          on a busy CPU (packages/edge-platform/docs/decisions/013-navigation-without-transitions.md). */}
      <HydratedRouter
        onError={reportRouterError}
        instrumentations={[navigationHold, navigationReporting]}
        useTransitions={false}
      />
    </StrictMode>,
    reactErrorCallbacks,
  );
});
