import type { RouterContextProvider } from "react-router";
import { type BrowserReportingConfig, browserReportingConfig } from "./reporting/browser-config.server";
import { getRequestContext } from "./request-context";

/**
 * What the root loader returns for the platform (PlatformDocument's `monitoring`). Pre-rendered pages run it
 * at build time, so their browser configuration is the build's (packages/edge-platform/docs/reporting.md, "Browser").
 *
 * Only documents carry it. The browser configuration is constant for a deployment, and the document keeps
 * the one it was served with (PlatformDocument), so a page-data answer leaves it out: with a DSN it was most
 * of a `.data` answer's bytes, and encoding it most of what reporting cost untraced requests
 * (packages/edge-platform/docs/PERFORMANCE.md, "Reporting's cost", has the figures).
 */
export type PlatformRootData = { reporting?: BrowserReportingConfig | null };

export function platformRootData(context: Readonly<RouterContextProvider>): PlatformRootData {
  const { pageData, config } = getRequestContext(context);
  return pageData ? {} : { reporting: browserReportingConfig(config.reporting) };
}
