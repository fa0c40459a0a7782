import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { navigationMonitoring, reportRouterError } from "./monitoring/browser-monitoring";
import { navigationHold } from "./navigation/navigation-client";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter onError={reportRouterError} instrumentations={[navigationHold, navigationMonitoring]} />
    </StrictMode>,
  );
});
