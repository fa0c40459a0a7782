import type { BrowserType } from "@playwright/test";

/**
 * How every browser here is started: Debian's Chromium (never a downloaded browser), headless, and kept
 * off the network: on a closed network it otherwise floods it with background lookups.
 */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The features Playwright itself disables (its `--disable-features` switch, as Playwright 1.65 passes it).
 * Chromium reads only the last `--disable-features` on its command line, so ours (below) must repeat them;
 * tests/unit/chromium-args.test.ts fails when a Playwright upgrade changes its list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
] as const;

/**
 * The address bar's pop-up, which Chromium 156 draws as a web page (chrome://omnibox-popup.top-chrome) and
 * loads, in a renderer of its own, for every window: with `--headless=new` every Playwright context is a window,
 * so each test paid for a page nobody sees. Measured on the 2-core machine, 12 page loads in new contexts: Chromium
 * used 44.7 CPU seconds with it and 21.0 without, the pages' own renderers the same (12 s). Headless has no
 * address bar to show it in; nothing a test observes changes.
 */
const HEADLESS_UNSEEN_FEATURES = [
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "WebUIOmniboxFullPopup",
  "PreloadTopChromeWebUI",
] as const;

/**
 * The spare renderer: after each navigation Chromium starts a renderer process ahead of the next one, for the
 * same profile. Each test's context is a new profile that makes one or two navigations and closes, so the spare
 * is started and thrown away. Measured on the 2-core machine, 24 tests each opening a page (2026-11-29): 20.2 CPU
 * seconds with it, 16.0 without; with a load of the fixture's `/` to hydration, 48.2 against 44.9 (four runs
 * each). A visitor's browser keeps it: it makes a visitor's next new-tab navigation start sooner, which no test
 * or benchmark here measures (the benchmarks' pairs run with the same arguments on both sides).
 */
const UNUSED_IN_SHORT_CONTEXTS = ["SpareRendererForSitePerProcess"] as const;

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...HEADLESS_UNSEEN_FEATURES, ...UNUSED_IN_SHORT_CONTEXTS].join(",")}`,
];

/**
 * Browser tests run at once by one Playwright suite: two on the two-core machines this runs on, one when the suite
 * shares the machine with another (`BROWSER_TESTS_SHARE_THE_CPU`, which the root's scripts/test-all.ts sets for the
 * suites it runs in two lanes). Each test's Chromium needs a core while it loads and hydrates a page, so four at once
 * on two cores only queued them: in a clean-clone `npm test` (2026-11-29), one per suite cut the run's CPU from
 * 1,284-1,398 seconds to 1,224, the boundary's three browser tests from 96-108 s to 57, and the platform's 102
 * took 396 s against 330-378.
 */
export const BROWSER_TEST_WORKERS = process.env.BROWSER_TESTS_SHARE_THE_CPU ? 1 : 2;

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
