import type { CarriedReport } from "./browser-reporter";
import { reportingRelease } from "./reporting-release";

/**
 * Reports a page carries to the tab's next page: a failure the page is about to leave because of (a full
 * navigation, contract C4's fallback) unloads it before anything could be sent, so the report waits in
 * sessionStorage (this tab only, gone when it closes) and the next page sends it once its SDK has loaded
 * (browser-sentry.client.ts), tagged with the release it happened in (`failed.release`: the next page may be
 * a newer deployment's). Out of the first load: the navigation code writes them, the SDK's chunk reads them.
 * A page that wrote one is leaving and takes none: left before its SDK had loaded, it still loads it (an idle
 * callback) while the next document is on its way, and took the reports only to unload with them unsent.
 */

const CARRIED_REPORTS_KEY = "edge-platform:carried-reports";
const MAX_CARRIED_REPORTS = 5;

/** Whether this page wrote a report: it is leaving for the next page, which sends them. */
let leaving = false;

/** Keeps a report for the next page; nothing when reporting is off or storage is unavailable. */
export function reportAcrossNavigation(message: string, tags: Record<string, string>): void {
  leaving = true;
  const release = reportingRelease.value;
  if (release === undefined) return;
  try {
    const waiting = readCarriedReports();
    if (waiting.length >= MAX_CARRIED_REPORTS) return;
    const report: CarriedReport = {
      message,
      tags: { ...tags, ...(release && { "failed.release": release }) },
    };
    sessionStorage.setItem(CARRIED_REPORTS_KEY, JSON.stringify([...waiting, report]));
  } catch {}
}

/** The reports an earlier page of this tab left, removed from storage: each is sent once. */
export function takeCarriedReports(): CarriedReport[] {
  if (leaving) return [];
  try {
    const reports = readCarriedReports();
    sessionStorage.removeItem(CARRIED_REPORTS_KEY);
    return reports;
  } catch {
    return [];
  }
}

function readCarriedReports(): CarriedReport[] {
  const parsed: unknown = JSON.parse(sessionStorage.getItem(CARRIED_REPORTS_KEY) ?? "[]");
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (report): report is CarriedReport =>
      typeof report === "object" &&
      report !== null &&
      typeof report.message === "string" &&
      typeof report.tags === "object" &&
      report.tags !== null &&
      Object.values(report.tags).every((value) => typeof value === "string"),
  );
}
