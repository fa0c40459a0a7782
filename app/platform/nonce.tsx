import { createContext, type ReactNode, useContext } from "react";

/**
 * The renderer provides the request's nonce; in the browser there is none to give (browsers hide the
 * attribute after parsing, and React does not compare it during hydration).
 */
const NonceContext = createContext<string | undefined>(undefined);

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return <NonceContext value={nonce}>{children}</NonceContext>;
}

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
