/**
 * The navigation code (navigation-install.ts), asked for as the first of the first load's modules runs:
 * entry.client.tsx imports this module first. On a phone the first load's modules take 100-170 ms of its CPU
 * to run; asked for after them, the code arrived one slow-4G round trip after the page's `load`, and a tap
 * then waited for it (packages/edge-platform/docs/PERFORMANCE.md, "Taps at three moments"). It is not in the
 * document's modulepreloads: nothing of it is needed for the first paint, and it would share the network
 * with what is. On the server (the document imports navigation-client.ts), nothing is imported: Vite replaces
 * `import.meta.env.SSR`, so the browser's build has the import alone and the server's has none.
 */
export const navigationCode: Promise<typeof import("./navigation-install")> = import.meta.env.SSR
  ? new Promise(() => {})
  : import("./navigation-install");
// Handled where it is installed (navigation-client.ts); not an unhandled rejection before then.
navigationCode.catch(() => {});
