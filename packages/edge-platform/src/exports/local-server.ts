/** `edge-platform/local-server` (Node): the built app served in workerd, as `npm start` and the tests do. */
export { type ServeBuildOptions, type ServedBuild, serveBuild } from "../local-server/serve-build.ts";
