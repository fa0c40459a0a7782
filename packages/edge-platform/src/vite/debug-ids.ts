import MagicString from "magic-string";
import type { Plugin } from "vite";
import { DEBUG_ID_PLACEHOLDER, DEBUG_ID_SNIPPET, debugIdFor } from "./source-maps.ts";

/** The module of Rolldown's runtime helpers (`rolldown-runtime-*.js`). */
const ROLLDOWN_RUNTIME = "\0rolldown/runtime.js";

/**
 * Starts every built JavaScript file of the browser and the Worker with DEBUG_ID_SNIPPET
 * (packages/edge-platform/src/vite/source-maps.ts) and, once the code is final, puts the file's debug ID in place of the
 * placeholder (the same length, so the maps stay true). Its renderChunk is "pre", so it runs before
 * @sentry/vite-plugin's, which then sees the snippet and adds none of its own.
 */
export function debugIds(): Plugin {
  return {
    name: "edge-platform:debug-ids",
    apply: "build",
    enforce: "pre",
    renderChunk: {
      order: "pre",
      handler(code, chunk) {
        const file = new MagicString(code);
        // Rolldown's own helpers get no map, so an ID there could never be resolved: not worth its bytes.
        // The comment (gone once minified) only tells @sentry/vite-plugin not to add its own snippet.
        // A chunk with no code of its own (an entry that only imports another chunk) cannot throw: no ID either.
        const ownCode = Object.values(chunk.modules).some((module) => module.renderedLength > 0);
        if (!ownCode || chunk.moduleIds.every((id) => id === ROLLDOWN_RUNTIME))
          file.prepend("/* no debug ID, no _sentryDebugIdIdentifier: no map */");
        else file.prepend(DEBUG_ID_SNIPPET);
        return { code: file.toString(), map: file.generateMap({ hires: "boundary", file: chunk.fileName }) };
      },
    },
    generateBundle: {
      order: "pre",
      async handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !chunk.code.includes(DEBUG_ID_PLACEHOLDER)) continue;
          chunk.code = chunk.code.replaceAll(DEBUG_ID_PLACEHOLDER, await debugIdFor(chunk.code));
        }
      },
    },
  };
}
