/** `edge-platform/react`: the document and error page a root renders, and the hooks a page uses. */
export { PlatformDocument, type PlatformDocumentProps } from "../document.tsx";
export { CLIENT_ERROR_MESSAGE, ErrorPage, errorMeta, SERVER_ERROR_MESSAGE } from "../errors/error-page.tsx";
export { usePrefetch } from "../navigation/navigation-client.ts";
export { useNonce } from "../nonce.tsx";
export { type DocumentVisitor, useHydrated, useTexts, useVisitor } from "../visitor/use-visitor.ts";
