import { useEffect } from "react";
import { useLocation, useMatches } from "react-router";
import type { BrowserReportingConfig } from "./browser-config.server";
import { matchedRoute, recordPageView, startBrowserReporting } from "./browser-reporting";

/** Starts browser error reporting after hydration and records each page shown (by its route). */
export function useRouteReporting(config: BrowserReportingConfig | null): void {
  const location = useLocation();
  const route = matchedRoute(useMatches().map((match) => match.id));

  useEffect(() => {
    if (config) startBrowserReporting(config);
  }, [config]);

  // Once per location (recordPageView ignores a key it has seen): the match of that render is the page's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location key identifies the page view
  useEffect(() => {
    recordPageView(location.key, route);
  }, [location.key]);
}
