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
