import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

/** The renderer processes running under a browser process (they are its zygote's children), by pid. */
function rendererPids(browserPid: number): number[] {
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
  return processes
    .filter(({ pid, args }) => under.has(pid) && args.join(" ").includes(" --type=renderer"))
    .map(({ pid }) => pid)
    .sort();
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
        expect(rendererPids(server.process().pid ?? 0)).toHaveLength(1);
        await sleep(100);
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });

  it("loads a page that sends Cross-Origin-Opener-Policy in the renderer its blank tab had, not in a new one", async () => {
    // As every page of the platform does (its security headers).
    const site = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html", "cross-origin-opener-policy": "same-origin" });
      response.end("<h1>page</h1>");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const server = await chromium.launchServer({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
    const browser = await chromium.connect(server.wsEndpoint());
    try {
      const page = await (await browser.newContext()).newPage();
      const blank = rendererPids(server.process().pid ?? 0);
      expect(blank).toHaveLength(1);
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      expect(await page.textContent("h1")).toBe("page");
      // Without --renderer-process-limit=1: another pid, the blank tab's process gone.
      for (let sample = 0; sample < 5; sample++) {
        expect(rendererPids(server.process().pid ?? 0)).toEqual(blank);
        await sleep(100);
      }
    } finally {
      await browser.close();
      await server.close();
      site.close();
    }
  });
});
