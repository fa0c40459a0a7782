import { createContext, type RouterContextProvider } from "react-router";
import type { PlatformConfig } from "./config.server";

/** What the Worker hands to every request's loaders, actions and renderer. */
export type RequestPlatform = {
  /** The Worker's bindings (the product's database, for one); the platform's own settings are in `config`. */
  env: Env;
  /** The parsed, checked configuration (config.server.ts). */
  config: PlatformConfig;
  /** Per-request CSP nonce for the inline scripts React Router renders. */
  nonce: string;
};

export const requestPlatform = createContext<RequestPlatform>();

export function getRequestPlatform(context: Readonly<RouterContextProvider>): RequestPlatform {
  return context.get(requestPlatform);
}
