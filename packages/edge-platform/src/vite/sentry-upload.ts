import { sentryVitePlugin } from "@sentry/vite-plugin";
import type { Plugin } from "vite";
import { SOURCE_MAPS_NOT_UPLOADED, sourceMapUpload } from "./source-maps.ts";
import { movedSourceMap } from "./source-maps-outside-assets.ts";

/**
 * With SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT set in the shell that builds, the upload of the maps
 * of every built JavaScript file of the browser and the Worker to Sentry after each environment's build
 * (packages/edge-platform/docs/decisions/009-source-maps.md). Without them the build is byte for byte the same, says so in one
 * line and makes no request: no telemetry, no release, nothing from the environment. The upload runs once
 * the files are written (writeBundle), and finds each file's map where sourceMapsOutsideAssets() put it.
 */
export function sentrySourceMapUpload(): Plugin[] {
  const settings = sourceMapUpload(process.env);
  const upload = settings.upload ? settings : undefined;
  const plugins = sentryVitePlugin({
    // "" rather than undefined, which the plugin would fill in from the environment.
    authToken: upload?.authToken ?? "",
    org: upload?.org ?? "",
    project: upload?.project ?? "",
    telemetry: false,
    // Without credentials its own warnings (one per environment) would only repeat SOURCE_MAPS_NOT_UPLOADED.
    silent: !upload,
    // Maps are matched by debug ID alone. The release is the deployed version's id, known only at run time
    // (packages/edge-platform/docs/decisions/009-source-maps.md), so the build neither creates nor injects one.
    release: { name: "", inject: false, create: false, finalize: false, setCommits: false },
    sourcemaps: { resolveSourceMap: movedSourceMap },
  }) as Plugin[];
  const report: Plugin = {
    name: "edge-platform:source-maps-upload-report",
    apply: "build",
    buildApp: {
      order: "pre",
      async handler(builder) {
        if (!upload) builder.config.logger.warn(SOURCE_MAPS_NOT_UPLOADED);
      },
    },
  };
  return [...plugins.map((plugin) => ({ ...plugin, apply: "build" as const })), report];
}
