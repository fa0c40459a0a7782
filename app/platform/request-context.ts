import { createContext, type RouterContextProvider } from "react-router";

/** What the Worker hands to every request's loaders, actions and renderer. */
export type RequestPlatform = {
  env: Env;
  ctx: ExecutionContext;
  /** Per-request CSP nonce for the inline scripts React Router renders. */
  nonce: string;
};

export const requestPlatform = createContext<RequestPlatform>();

export function getRequestPlatform(context: Readonly<RouterContextProvider>): RequestPlatform {
  return context.get(requestPlatform);
}
