import {
  browserTracingIntegration,
  captureMessage,
  captureReactException,
  getClient,
  getCurrentScope,
  init,
  type Span,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
  updateSpanName,
  withStaticSpan,
} from "@sentry/react";
import type { BrowserReportingConfig } from "./browser-config.server";
import type { BrowserReporter, PageView } from "./browser-reporter";
import { takeCarriedReports } from "./carried-reports";
import { SENTRY_DATA_COLLECTION } from "./data-collection";
import { beforeBreadcrumb, beforeSend, beforeSendSpan, beforeSendTransaction } from "./event-filters";
import { SEGMENT_NAME_SOURCE } from "./sentry-attributes";
import { RELATIVE_URL, tracePropagationTargets } from "./trace-propagation";

/**
 * The Sentry browser SDK, loaded lazily (never in the first-load JavaScript). Page loads and navigations
 * are traced by hand so each transaction is named by its route pattern and marked when it resolved.
 */
export function createBrowserReporter(config: BrowserReportingConfig): BrowserReporter {
  init({
    dsn: config.dsn,
    tunnel: config.tunnel,
    environment: config.environment,
    release: config.release,
    tracesSampleRate: config.tracesSampleRate,
    traceLifecycle: "static",
    // The page's own origin and the configured ones; never a third party (trace-propagation.ts).
    tracePropagationTargets: [
      RELATIVE_URL,
      ...tracePropagationTargets([window.location.origin, ...config.tracePropagationOrigins]),
    ],
    integrations: [browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false })],
    dataCollection: SENTRY_DATA_COLLECTION,
    beforeSend,
    beforeSendTransaction,
    // Static, like the trace lifecycle: it receives the span as a transaction's spans look.
    beforeSendSpan: withStaticSpan(beforeSendSpan),
    beforeBreadcrumb,
  });
  const client = getClient();
  let navigation: Span | undefined;
  // What an earlier page of this tab left for this one to send (carried-reports.ts), once.
  for (const { message, tags } of takeCarriedReports()) captureMessage(message, { level: "warning", tags });

  return {
    captureException(error, { handled, componentStack }) {
      // Sentry's React way: the component stack becomes the error's cause, as its reactErrorHandler does.
      captureReactException(
        error,
        { componentStack: componentStack ?? "" },
        { mechanism: { type: "auto.function.react.error_handler", handled } },
      );
    },
    pageLoad(page, trace) {
      if (!client) return;
      startBrowserTracingPageLoadSpan(
        client,
        { name: page.route, startTime: performance.timeOrigin / 1000, attributes: pageAttributes(page) },
        trace,
      );
    },
    navigationStart(to) {
      if (!client) return;
      // Named after the target's path until it resolves; one that never does is dropped (packages/edge-platform/docs/contract.md C8).
      // Never its query or fragment, and as a "url" name it stays out of the trace headers (`baggage`).
      navigation = startBrowserTracingNavigationSpan(client, {
        name: to.split(/[?#]/)[0] ?? "",
        attributes: { [SEGMENT_NAME_SOURCE]: "url" as const, "route.resolved": false },
      });
    },
    navigationEnd(page) {
      if (!navigation) return;
      updateSpanName(navigation, page.route);
      // The SDK named the scope after the target URL when the navigation started; what it sends once the
      // navigation span has ended (an INP span after a later click) is named by the scope: the route.
      getCurrentScope().setTransactionName(page.route);
      navigation.setAttributes(pageAttributes(page));
      navigation = undefined;
    },
  };
}

function pageAttributes(page: PageView) {
  return {
    [SEGMENT_NAME_SOURCE]: "route" as const,
    "route.resolved": true,
    ...(page.status !== undefined && { "http.response.status_code": page.status }),
  };
}
