import { STATIC_PAGES } from "../../app/product.config.ts";

export { STATIC_PAGES };

/**
 * One pre-rendered page per route, for checks that cost a browser visit each: every top-level page, and the first
 * of the pages under each other parent path (a route with a parameter pre-renders many pages of one kind).
 */
export const A_STATIC_PAGE_PER_ROUTE: readonly string[] = STATIC_PAGES.filter((path, index) => {
  const parent = path.slice(0, path.lastIndexOf("/"));
  return (
    parent === "" ||
    STATIC_PAGES.findIndex((other) => other.slice(0, other.lastIndexOf("/")) === parent) === index
  );
});

/**
 * A page of whatever product this repository holds, for the checks of its build and its local servers that
 * hold for any product (the platform's behaviour, not one page's content): the first static page the product
 * declares, so a product that replaces the reference pages keeps these checks without editing them.
 */
export const A_STATIC_PAGE = STATIC_PAGES[0] ?? "/";

/** Where the build writes a pre-rendered page's HTML, under build/client. */
export function prerenderedFile(path: string): string {
  return path === "/" ? "index.html" : `${path.replace(/^\//, "")}/index.html`;
}
