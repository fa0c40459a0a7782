import type { BrowserOptions } from "@sentry/react";

/**
 * What the Sentry SDKs (Worker and browser) may collect. Sentry 11 collects everything by default:
 * IP addresses, cookies, every header and request bodies, i.e. what users type into forms. Reports
 * need the failing code and the request's route, not the user's data (issue 7: nothing sensitive
 * leaves through reporting).
 */
export const SENTRY_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: {
    request: {
      allow: ["accept", "accept-language", "content-length", "content-type", "referer", "user-agent"],
    },
    response: false,
  },
  httpBodies: [],
  urlQueryParams: true,
  databaseQueryData: false,
  stackFrameVariables: false,
} satisfies BrowserOptions["dataCollection"];
