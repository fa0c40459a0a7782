import { readFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { describe, expect, it } from "vitest";
import {
  CHROMIUM_ARGS,
  CHROMIUM_EXECUTABLE,
  PLAYWRIGHT_DISABLED_FEATURES,
} from "../../src/testing/chromium.ts";

/** The browser process's command line, as Chromium got it (Linux). */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

function disabledFeatures(args: string[]): string[][] {
  return args
    .filter((arg) => arg.startsWith("--disable-features="))
    .map((arg) => arg.slice("--disable-features=".length).split(","));
}

describe("how the tests start Chromium (src/testing/chromium.ts)", () => {
  it("repeats every feature Playwright disables, since Chromium reads only the last --disable-features", async () => {
    const server = await chromium.launchServer({
      executablePath: CHROMIUM_EXECUTABLE,
      args: ["--headless=new"],
    });
    try {
      const [playwrights] = disabledFeatures(commandLine(server.process().pid ?? 0));
      expect(playwrights).toEqual([...PLAYWRIGHT_DISABLED_FEATURES]);
    } finally {
      await server.close();
    }
  });

  it("starts no address-bar pop-up page beside a test's page, and keeps Playwright's features off", async () => {
    const server = await chromium.launchServer({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
    const browser = await chromium.connect(server.wsEndpoint());
    try {
      const lists = disabledFeatures(commandLine(server.process().pid ?? 0));
      expect(lists.at(-1)).toEqual(
        expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup"]),
      );

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto("data:text/html,<h1>page</h1>");
      const session = await browser.newBrowserCDPSession();
      const { targetInfos } = (await session.send("Target.getTargets")) as {
        targetInfos: { type: string; url: string }[];
      };
      // Chromium 156 loads chrome://omnibox-popup.top-chrome/ for every window unless the features are off.
      expect(targetInfos.filter((target) => target.url.startsWith("chrome://"))).toEqual([]);
      expect(targetInfos.some((target) => target.type === "page")).toBe(true);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
