import { useEffect } from "react";
import { useLocation, useMatches } from "react-router";
import type { BrowserMonitoringConfig } from "./browser-config.server";
import { recordPageView, startBrowserMonitoring } from "./browser-monitoring";

/** Starts browser error reporting after hydration and records each page shown (by its deepest match). */
export function useRouteMonitoring(config: BrowserMonitoringConfig | null): void {
  const location = useLocation();
  const leaf = useMatches().at(-1);
  const match = leaf
    ? { pathname: leaf.pathname, params: leaf.params }
    : { pathname: location.pathname, params: {} };

  useEffect(() => {
    if (config) startBrowserMonitoring(config);
  }, [config]);

  // Once per location (recordPageView ignores a key it has seen): the match of that render is the page's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location key identifies the page view
  useEffect(() => {
    recordPageView(location.key, match);
  }, [location.key]);
}
