import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { navigationMonitoring, reportRouterError } from "./platform/monitoring/browser-monitoring";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter onError={reportRouterError} instrumentations={[navigationMonitoring]} />
    </StrictMode>,
  );
});
