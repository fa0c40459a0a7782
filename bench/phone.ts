import type { Page } from "@playwright/test";

/**
 * A phone on a slow network, with Chromium's own throttling (CDP), for `--phone` in bench:nav and
 * bench:first-paint: 150 ms round trip, 1.6 Mbps down, 750 kbps up (Lighthouse's "slow 4G" figures) and
 * the CPU slowed 4x. Chromium applies the latency per request, on top of this loopback's; the servers here
 * speak HTTP/1.1, so at most six requests to an origin are in flight at once.
 */
export const PHONE = {
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  cpuSlowdown: 4,
} as const;

/**
 * Which half of the phone to emulate: both (`phone`), its network alone (`network`), its CPU alone (`cpu`),
 * or neither (`desktop`). The splits tell a latency-bound cost from a CPU-bound one.
 */
export type Profile = "phone" | "network" | "cpu" | "desktop";
export const PROFILES: readonly Profile[] = ["phone", "network", "cpu", "desktop"];

export async function emulatePhone(page: Page, profile: Profile = "phone"): Promise<void> {
  if (profile === "desktop") return;
  const cdp = await page.context().newCDPSession(page);
  if (profile !== "cpu") {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.downloadBitsPerSecond / 8,
      uploadThroughput: PHONE.uploadBitsPerSecond / 8,
    });
  }
  if (profile !== "network") await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpuSlowdown });
}

/** `--phone` on the command line. */
export const PHONE_OPTION = { phone: { type: "boolean", default: false } } as const;
