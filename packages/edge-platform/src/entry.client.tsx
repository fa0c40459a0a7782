import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import {
  navigationMonitoring,
  reactErrorCallbacks,
  reportRouterError,
} from "./monitoring/browser-monitoring";
import { navigationGate } from "./navigation/navigation-client";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      {/* Router updates as plain renders, not transitions: a client navigation shows its page 30-40% sooner
          on a busy CPU (packages/edge-platform/docs/decisions/013-navigation-without-transitions.md). */}
      <HydratedRouter
        onError={reportRouterError}
        instrumentations={[navigationGate, navigationMonitoring]}
        useTransitions={false}
      />
    </StrictMode>,
    reactErrorCallbacks,
  );
});
