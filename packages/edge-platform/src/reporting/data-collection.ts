import type { BrowserOptions } from "@sentry/react";
import { REPORTED_QUERY_PARAMS } from "./report-privacy";

/**
 * What the Sentry SDKs (Worker and browser) may collect. Sentry 11 collects everything by default:
 * IP addresses, cookies, every header and request bodies, i.e. what users type into forms. Reports
 * need the failing code and the request's route, not the user's data (nothing sensitive
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
  // Values of other parameters never leave (report-privacy.ts also removes them wherever the SDKs miss).
  urlQueryParams: REPORTED_QUERY_PARAMS.length > 0 ? { allow: [...REPORTED_QUERY_PARAMS] } : false,
  databaseQueryData: false,
  stackFrameVariables: false,
} satisfies BrowserOptions["dataCollection"];
