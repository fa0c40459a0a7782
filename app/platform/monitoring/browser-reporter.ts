/**
 * What the first-load monitoring code (browser-monitoring.ts) and the lazily loaded Sentry reporter
 * (browser-sentry.client.ts) agree on; its own module, so neither imports the other's code.
 */

/** A page shown: its route (`/items/:id`, from React Router's routes) and its status when the error page set one. */
export type PageView = {
  route: string;
  status: number | undefined;
};

export type BrowserReporter = {
  captureException(error: unknown): void;
  pageLoad(page: PageView): void;
  navigationStart(to: string): void;
  navigationEnd(page: PageView): void;
};
