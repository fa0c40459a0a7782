import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
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

/** How many renderer processes run under a browser process (they are its zygote's children). */
function renderers(browserPid: number): number {
  const processes = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // "pid (name) state ppid …": the name may hold spaces and parentheses; the last ")" ends it.
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return [{ pid: Number(pid), parent, args: commandLine(Number(pid)) }];
      } catch {
        return []; // It ended meanwhile.
      }
    });
  const under = new Set([browserPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { pid, parent } of processes)
      if (under.has(parent) && !under.has(pid)) {
        under.add(pid);
        grew = true;
      }
  }
  // A child process rewrites its title: its command line may be one string with spaces.
  return processes.filter(({ pid, args }) => under.has(pid) && args.join(" ").includes(" --type=renderer"))
    .length;
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

  it("starts no address-bar pop-up page and no spare renderer beside a test's page, and keeps Playwright's features off", async () => {
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
      // One renderer, the page's: no spare one started beside it for a next navigation the test never makes
      // (checked for a second: Chromium starts the spare just after a navigation commits).
      for (let sample = 0; sample < 10; sample++) {
        expect(renderers(server.process().pid ?? 0)).toBe(1);
        await sleep(100);
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
