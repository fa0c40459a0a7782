import {
  browserTracingIntegration,
  captureException,
  getClient,
  getCurrentScope,
  init,
  type Span,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
  updateSpanName,
  withStaticSpan,
} from "@sentry/react";
import type { BrowserMonitoringConfig } from "./browser-config.server";
import type { BrowserReporter, PageView } from "./browser-reporter";
import { SENTRY_DATA_COLLECTION } from "./data-collection";
import { beforeBreadcrumb, beforeSend, beforeSendSpan, beforeSendTransaction } from "./event-filters";

/** Sentry's attribute for where a transaction name comes from ("route" groups by it); not exported by the SDK. */
const SENTRY_SOURCE = "sentry.source";

/**
 * The Sentry browser SDK, loaded lazily (never in the first-load JavaScript). Page loads and navigations
 * are traced by hand so each transaction is named by its route pattern and marked when it resolved.
 */
export function createBrowserReporter(config: BrowserMonitoringConfig): BrowserReporter {
  init({
    dsn: config.dsn,
    tunnel: config.tunnel,
    environment: config.environment,
    release: config.release,
    tracesSampleRate: config.tracesSampleRate,
    traceLifecycle: "static",
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

  return {
    captureException(error) {
      captureException(error, { mechanism: { type: "react-router", handled: false } });
    },
    pageLoad(page) {
      if (!client) return;
      startBrowserTracingPageLoadSpan(client, {
        name: page.route,
        startTime: performance.timeOrigin / 1000,
        attributes: pageAttributes(page),
      });
    },
    navigationStart(to) {
      if (!client) return;
      // Named after the target until it resolves; one that never does is dropped (docs/contract.md C8).
      navigation = startBrowserTracingNavigationSpan(client, {
        name: to,
        attributes: { [SENTRY_SOURCE]: "url", "route.resolved": false },
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
    [SENTRY_SOURCE]: "route",
    "route.resolved": true,
    ...(page.status !== undefined && { "http.response.status_code": page.status }),
  };
}
