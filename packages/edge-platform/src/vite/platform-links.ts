import { isAbsolute, relative, resolve, sep } from "node:path";
import { PACKAGE_SOURCE_DIRECTORY } from "../package-source.ts";

/**
 * The module the application's own `react-router` imports resolve to: React Router, with `Link` and `NavLink`
 * prefetching through the platform's queue (packages/edge-platform/docs/decisions/020-react-router-prefetch-prop.md).
 */
export const PLATFORM_LINKS_MODULE = resolve(PACKAGE_SOURCE_DIRECTORY, "navigation/react-router-links.tsx");

/** The platform's own modules (packages/edge-platform/src/): they, the links module first, get the real React Router. */
const PLATFORM_DIRECTORY = PACKAGE_SOURCE_DIRECTORY;

/**
 * Whether an import of `source` by `importer` (a Vite module id) resolves to PLATFORM_LINKS_MODULE: an import
 * of `react-router` itself from a file of the application under build, the platform's own files and
 * dependencies (node_modules) excepted. Dependencies keep the real React Router: their links are theirs
 * (and a second copy of React Router's contexts would break them). Virtual modules (`\0...`) are no files.
 */
export function usesPlatformLinks(
  source: string,
  importer: string | undefined,
  appDirectory: string,
): boolean {
  if (source !== "react-router" || !importer) return false;
  // React Router's browser build enters each route through a query (`?__react-router-build-client-route`).
  const file = importer.split("?")[0] ?? importer;
  return (
    isAbsolute(file) &&
    within(file, appDirectory) &&
    !within(file, PLATFORM_DIRECTORY) &&
    !file.split(/[\\/]/).includes("node_modules")
  );
}

function within(file: string, directory: string): boolean {
  const path = relative(directory, file);
  return path !== "" && path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}
