/**
 * The release the page was served from, set when browser reporting starts (browser-reporting.ts); reports
 * carried to the next page are tagged with it (carried-reports.ts). Its own module: both sides of the SDK's
 * lazy import read it without importing each other.
 */
export const reportingRelease: { value?: string } = {};
