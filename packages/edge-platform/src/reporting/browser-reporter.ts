/**
 * What the first-load reporting code (browser-reporting.ts) and the lazily loaded Sentry reporter
 * (browser-sentry.client.ts) agree on; its own module, so neither imports the other's code.
 */

/** A page shown: its route (`/items/:id`, from React Router's routes) and its status when the error page set one. */
export type PageView = {
  route: string;
  status: number | undefined;
};

/**
 * How a browser error was met: `handled` when something caught it and the page went on (a product's own error
 * boundary, an error React recovered from), and React's component stack when React saw it.
 */
export type BrowserErrorDetails = { handled: boolean; componentStack?: string | undefined };

/**
 * A failure the page left because of (by a full navigation), reported by the tab's next page: a message,
 * handled (the visitor got the page), with what it happened on.
 */
export type CarriedReport = { message: string; tags: Record<string, string> };

export type BrowserReporter = {
  captureException(error: unknown, details: BrowserErrorDetails): void;
  /** The page load, continuing the server's trace when the document carried one (read before hydration). */
  pageLoad(page: PageView, trace?: { sentryTrace?: string | undefined; baggage?: string | undefined }): void;
  navigationStart(to: string): void;
  navigationEnd(page: PageView): void;
};
