import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Plugin } from "vite";
import { headersFileForAssets } from "./static-page-headers.ts";

/**
 * Once the pages are pre-rendered, completes the assets `_headers` file of the build: the base security
 * headers for every asset and the type of page data (packages/edge-platform/src/vite/static-page-headers.ts). A fixed set
 * of rules: pages get their policy from the Worker. Vite runs a "post" buildApp hook after the builder's
 * own buildApp, which is React Router's build with its pre-rendering around it.
 */
export function assetsHeadersFile(): Plugin {
  return {
    name: "edge-platform:assets-headers-file",
    apply: "build",
    buildApp: {
      order: "post",
      async handler(builder) {
        const clientDirectory = builder.environments.client?.config.build.outDir;
        if (!clientDirectory) throw new Error("No client build to write _headers for");
        const headersFile = join(clientDirectory, "_headers");
        await writeFile(headersFile, headersFileForAssets(await readFile(headersFile, "utf8")));
      },
    },
  };
}
