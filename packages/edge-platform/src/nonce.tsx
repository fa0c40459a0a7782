import { createContext, type ReactNode, useContext } from "react";

/** The renderer provides the request's nonce. */
const NonceContext = createContext<string | undefined>(undefined);

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return <NonceContext value={nonce}>{children}</NonceContext>;
}

/**
 * In the browser the nonce is the one the server rendered into the document: React compares it
 * during hydration (through the `nonce` property, as browsers hide the attribute), so rendering
 * anything else would be a mismatch. Read once; a document keeps its nonce.
 */
let documentNonce: string | undefined;

export function useNonce(): string | undefined {
  const provided = useContext(NonceContext);
  // The renderer always provides one, so only the browser reaches the document.
  if (provided === undefined)
    documentNonce ??= document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  return provided ?? documentNonce;
}
