/**
 * What the first-load monitoring code (browser-monitoring.ts) and the lazily loaded Sentry reporter
 * (browser-sentry.client.ts) agree on; its own module, so neither imports the other's code.
 */

/**
 * A page shown: its matched path and params (the lazy reporter turns them into the route pattern, so the
 * pattern code stays out of the first-load JavaScript) and its status when the error page set one.
 */
export type PageView = {
  pathname: string;
  params: Readonly<Record<string, string | undefined>>;
  status: number | undefined;
};

export type BrowserReporter = {
  captureException(error: unknown): void;
  pageLoad(page: PageView): void;
  navigationStart(to: string): void;
  navigationEnd(page: PageView): void;
};
