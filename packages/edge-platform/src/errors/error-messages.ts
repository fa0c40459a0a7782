/** packages/edge-platform/docs/contract.md C1, word for word (the wording of the original app's framework). */
export const SERVER_ERROR_MESSAGE =
  "Application error: a server-side exception has occurred (see the server logs for more information).";
export const CLIENT_ERROR_MESSAGE =
  "Application error: a client-side exception has occurred (see the browser console for more information).";
