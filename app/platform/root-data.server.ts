import type { RouterContextProvider } from "react-router";
import { browserMonitoringConfig } from "./monitoring/browser-config.server";
import { getRequestPlatform } from "./request-context";

/**
 * What the root loader returns for the platform (PlatformDocument's `monitoring`). Pre-rendered pages run it
 * at build time, so their browser configuration is the build's (docs/MONITORING.md, "Static pages").
 */
export function platformRootData(context: Readonly<RouterContextProvider>) {
  return { monitoring: browserMonitoringConfig(getRequestPlatform(context).config.monitoring) };
}
