/** Written by the platform's Vite plugin (vite/built-stylesheets-module.ts). */
declare module "virtual:edge-platform/inline-stylesheets" {
  export const INLINE_STYLESHEETS: Readonly<
    Record<string, { readonly text: string; readonly sha256: string }>
  >;
}
