import type { CarriedReport } from "./browser-reporter";
import { reportingRelease } from "./reporting-release";

/**
 * Reports a page carries to the tab's next page: a failure the page is about to leave because of (a full
 * navigation, contract C4's fallback) unloads it before anything could be sent, so the report waits in
 * sessionStorage (this tab only, gone when it closes) and the next page sends it once its SDK has loaded
 * (browser-sentry.client.ts), tagged with the release it happened in (`failed.release`: the next page may be
 * a newer deployment's). Out of the first load: the navigation code writes them, the SDK's chunk reads them.
 * Each is marked with the document that wrote it, which never takes it back: a page left before its SDK had
 * loaded still loads it (an idle callback) while the next document is on its way, and took the report only
 * to unload with it unsent.
 */

const CARRIED_REPORTS_KEY = "edge-platform:carried-reports";
const MAX_CARRIED_REPORTS = 5;

/** This document, among the tab's: the time it started at, which a later document's cannot equal. */
const THIS_DOCUMENT = typeof performance === "undefined" ? 0 : performance.timeOrigin;

/**
 * As stored: the report, and the document that wrote it (`THIS_DOCUMENT`). Without it: written by a tab on
 * a release from before it was stored, the very tabs a deploy breaks (another document's, then).
 */
type StoredReport = CarriedReport & { from?: number };

/** Keeps a report for the next page; nothing when reporting is off or storage is unavailable. */
export function reportAcrossNavigation(message: string, tags: Record<string, string>): void {
  const release = reportingRelease.value;
  if (release === undefined) return;
  try {
    const waiting = readCarriedReports();
    if (waiting.length >= MAX_CARRIED_REPORTS) return;
    const report: StoredReport = {
      message,
      tags: { ...tags, ...(release && { "failed.release": release }) },
      from: THIS_DOCUMENT,
    };
    sessionStorage.setItem(CARRIED_REPORTS_KEY, JSON.stringify([...waiting, report]));
  } catch {}
}

/**
 * The reports an earlier page of this tab left, removed from storage: each is sent once. This document's own
 * stay for the next.
 */
export function takeCarriedReports(): CarriedReport[] {
  try {
    const stored = readCarriedReports();
    const own = stored.filter((report) => report.from === THIS_DOCUMENT);
    if (own.length > 0) sessionStorage.setItem(CARRIED_REPORTS_KEY, JSON.stringify(own));
    else sessionStorage.removeItem(CARRIED_REPORTS_KEY);
    return stored
      .filter((report) => report.from !== THIS_DOCUMENT)
      .map(({ message, tags }) => ({ message, tags }));
  } catch {
    return [];
  }
}

function readCarriedReports(): StoredReport[] {
  const parsed: unknown = JSON.parse(sessionStorage.getItem(CARRIED_REPORTS_KEY) ?? "[]");
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (report): report is StoredReport =>
      typeof report === "object" &&
      report !== null &&
      typeof report.message === "string" &&
      (report.from === undefined || typeof report.from === "number") &&
      typeof report.tags === "object" &&
      report.tags !== null &&
      Object.values(report.tags).every((value) => typeof value === "string"),
  );
}
