import { test as base, expect, type Page, type Route } from "@playwright/test";

export { expect };

type PageProblems = {
  /** Declare the page errors and console errors this test expects; any other one fails the test. */
  expect(pattern: RegExp): void;
};

/**
 * Every browser test fails on an uncaught page error or console error it did not declare: a CSP violation or a
 * hydration mismatch shows up only there, while the page may still look right. Heard on the test's context, every
 * page of it (a popup, a second tab) included; a test that never opens a page then starts no page either (a page
 * starts a renderer process, which cost more than many a test's own work).
 */
export const test = base.extend<{ pageProblems: PageProblems }>({
  pageProblems: [
    async ({ context }, use) => {
      const seen: string[] = [];
      const expected: RegExp[] = [];
      context.on("weberror", (error) => seen.push(`pageerror: ${error.error().message}`));
      context.on("console", (message) => {
        if (message.type() === "error") seen.push(`console.error: ${message.text()}`);
      });
      await use({ expect: (pattern) => expected.push(pattern) });
      const unexpected = seen.filter((problem) => !expected.some((pattern) => pattern.test(problem)));
      expect(unexpected, "uncaught page errors or console errors").toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Records every Content-Security-Policy violation the document reports, from before its first script, as
 * "<directive> <blocked URI>"; call the returned function to read them.
 */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

/** Marks the current document; a client-side navigation keeps the mark, a document load loses it. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __documentMark?: boolean }).__documentMark = true;
  });
}

export async function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __documentMark?: boolean }).__documentMark === true);
}

/**
 * Resolves once the page is hydrated and the navigation code is installed (it marks
 * `<html data-navigation="ready">`), so a click is a client-side navigation with every fallback in place.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.navigation === "ready");
}

/**
 * No link ever becomes visible (IntersectionObserver reports nothing), so the default viewport prefetch
 * stays out of a test about another way of prefetching.
 */
export async function linksNeverVisible(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.IntersectionObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    } as unknown as typeof IntersectionObserver;
  });
}

/** A client-side navigation to a URL no page links to, as a <Link> to it would do. */
export async function navigateWithRouter(page: Page, to: string): Promise<void> {
  await page.evaluate(async (target) => {
    const router = (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } })
      .__reactRouterDataRouter;
    await router.navigate(target);
  }, to);
}

/** Holds every request whose path matches until released, and counts how many are held at once. */
export async function holdRequests(page: Page, matches: (path: string) => boolean) {
  const held: { path: string; route: Route }[] = [];
  const seen: string[] = [];
  let mostHeld = 0;
  let passThrough = (_path: string) => false;
  await page.route(
    (url) => matches(url.pathname),
    async (route) => {
      const path = new URL(route.request().url()).pathname;
      seen.push(path);
      if (passThrough(path)) return route.continue();
      held.push({ path, route });
      mostHeld = Math.max(mostHeld, held.length);
    },
  );
  return {
    seen,
    held,
    get mostHeld() {
      return mostHeld;
    },
    letThrough(rule: (path: string) => boolean) {
      passThrough = rule;
    },
    async release(path?: string) {
      const index = path === undefined ? 0 : held.findIndex((entry) => entry.path === path);
      const [entry] = held.splice(index, 1);
      await entry?.route.continue();
    },
  };
}

/** Every page-data request the page makes, by path, in order. */
export function dataRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith(".data")) requests.push(pathname);
  });
  return requests;
}
