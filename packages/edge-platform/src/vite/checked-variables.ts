import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Plugin } from "vite";
import { parsePlatformConfig } from "../config.server.ts";

/**
 * The build fails when the variables it will be deployed with are invalid (packages/edge-platform/src/config.server.ts),
 * naming each one: the deploy config @cloudflare/vite-plugin writes (build/server/wrangler.json) holds them.
 * Secrets are not in it; the Worker checks those on its first request.
 */
export function checkedVariables(): Plugin {
  return {
    name: "edge-platform:checked-variables",
    apply: "build",
    // Runs once the Worker's bundle and its deploy config are written, before the pre-rendering.
    writeBundle: {
      order: "post",
      async handler() {
        if (this.environment.name !== "ssr") return;
        parsePlatformConfig(await deployedVariables(this.environment.config.build.outDir));
      },
    },
  };
}

/** The `vars` of the deploy config @cloudflare/vite-plugin writes next to the Worker's bundle. */
async function deployedVariables(serverDirectory: string): Promise<Record<string, unknown>> {
  const deployConfig = JSON.parse(await readFile(join(serverDirectory, "wrangler.json"), "utf8"));
  return (deployConfig as { vars?: Record<string, unknown> }).vars ?? {};
}
