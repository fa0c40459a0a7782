import { useEffect } from "react";
import { useLocation, useMatches } from "react-router";
import type { BrowserMonitoringConfig } from "./browser-config.server";
import { matchedRoute, recordPageView, startBrowserMonitoring } from "./browser-monitoring";

/** Starts browser error reporting after hydration and records each page shown (by its route). */
export function useRouteMonitoring(config: BrowserMonitoringConfig | null): void {
  const location = useLocation();
  const route = matchedRoute(useMatches().map((match) => match.id));

  useEffect(() => {
    if (config) startBrowserMonitoring(config);
  }, [config]);

  // Once per location (recordPageView ignores a key it has seen): the match of that render is the page's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location key identifies the page view
  useEffect(() => {
    recordPageView(location.key, route);
  }, [location.key]);
}
