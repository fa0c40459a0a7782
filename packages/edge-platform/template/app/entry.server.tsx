export { default, handleError, instrumentations, streamTimeout } from "edge-platform/entry.server";
