import { useEffect } from "react";
import { useLocation, useMatches } from "react-router";
import type { BrowserMonitoringConfig } from "./browser-config.server";
import { recordPageView, startBrowserMonitoring } from "./browser-monitoring";
import { routePattern } from "./route-pattern";

/** Starts browser error reporting after hydration and records each page shown, named by route pattern. */
export function useRouteMonitoring(config: BrowserMonitoringConfig | null): void {
  const location = useLocation();
  const leaf = useMatches().at(-1);
  const pattern = leaf ? routePattern(leaf.pathname, leaf.params) : location.pathname;

  useEffect(() => {
    if (config) startBrowserMonitoring(config);
  }, [config]);

  useEffect(() => {
    recordPageView(location.key, pattern);
  }, [location.key, pattern]);
}
