import type { BrowserType } from "@playwright/test";

/**
 * How every browser here is started: Debian's Chromium (never a downloaded browser), headless, and kept
 * off the network: on a closed network it otherwise floods it with background lookups.
 */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * A Chromium with its back/forward cache on, as users have it: Playwright switches the cache off by
 * default (`--disable-back-forward-cache`), so tests of what Back restores start their own browser.
 */
export function launchWithBackForwardCache(chromium: BrowserType) {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ["--disable-back-forward-cache"],
  });
}
