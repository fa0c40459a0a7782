import { resolve } from "node:path";

/**
 * The package's TypeScript sources (src/), for Node-side code that hands some of them to a bundler or to workerd:
 * the same folder whether that code runs from src/ itself (this repository) or from the JavaScript a packed
 * package carries in dist/ (scripts/pack.ts), which mirrors src/ at the same depth.
 */
export const PACKAGE_SOURCE_DIRECTORY = resolve(import.meta.dirname, "../src");
