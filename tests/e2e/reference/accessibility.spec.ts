import type { Page } from "@playwright/test";
import { expect, linksNeverVisible, test, waitForHydration } from "edge-platform/testing/playwright";
import { controlTargets, NAV_LINKS } from "../../../app/components/site-pages.ts";
import { axe, checkPage, ERROR_STATUS, PHONE, scrollsSideways } from "../../support/page-accessibility.ts";
import { A_STATIC_PAGE } from "../../support/product-pages.ts";

/**
 * The reference product's pages that are not pre-rendered (the pre-rendered ones and the 404 page are checked for
 * any product: tests/e2e/accessibility.spec.ts), the application-error page, its forms and its navigation, for a
 * visitor on a small phone, in dark mode, with a screen reader or a keyboard.
 */
const PAGES = [
  { path: "/now", h1: "Now" },
  { path: "/items", h1: "Edge locations" },
  { path: "/items/ams", h1: "Amsterdam" },
  { path: "/messages", h1: "Messages" },
  { path: "/messages/latest", h1: "Latest messages" },
  { path: "/failures/render", h1: /^Application error: a server-side exception/, status: 500 },
] as const;

function unique(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 10)}`;
}

/** Posts through the form and waits until the list shows `shown` (a unique part of the text). */
async function postMessage(page: Page, name: string, text: string, shown = text): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Post message" }).click();
  await expect(page.getByRole("list", { name: "Latest messages" }).getByText(shown)).toBeVisible();
}

test.describe("every reference page: reflow at 320 px, title and description, axe WCAG 2.1 A and AA", () => {
  test.use({ viewport: PHONE });

  for (const { path, h1, ...rest } of PAGES) {
    test(`${path}`, async ({ page, pageProblems }) => {
      pageProblems.expect(ERROR_STATUS);
      // The failure route throws on the server only; the client renders its own page and meta.
      await checkPage(page, path, {
        h1,
        status: "status" in rest ? rest.status : 200,
        from: path === "/failures/render" ? undefined : "/",
      });
    });
  }
});

test.describe("/messages in use", () => {
  test.describe("at 320 px", () => {
    test.use({ viewport: PHONE });

    test("a 500-character word and a message in lines leave /messages within the screen, lines shown as lines", async ({
      page,
    }) => {
      const word = "W".repeat(490) + Math.random().toString(36).slice(2, 12).padEnd(10, "0");
      const lines = [unique("first line"), "second line", "third line"];
      await page.goto("/messages");
      await waitForHydration(page);
      await postMessage(page, "N".repeat(50), word);
      await postMessage(page, "Lines", lines.join("\n"), lines[0]);
      const list = page.getByRole("list", { name: "Latest messages" });
      await expect(list.getByText(word)).toBeVisible();
      // innerText follows the CSS: line breaks that are not shown read as spaces.
      expect(await list.getByText(lines[0] ?? "").innerText()).toBe(lines.join("\n"));
      expect(await scrollsSideways(page)).toBe(false);

      await page.reload();
      await expect(list.getByText(word)).toBeVisible();
      expect(await list.getByText(lines[0] ?? "").innerText()).toBe(lines.join("\n"));
      expect(await scrollsSideways(page)).toBe(false);
    });
  });

  test("/messages showing errors and a posted message has no violations, light and dark", async ({
    page,
  }) => {
    await page.goto("/messages");
    await waitForHydration(page);
    await postMessage(page, "Axe", unique("checked by axe"));
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByText("Your message was not posted: 2 fields need correcting.")).toBeVisible();
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const results = await (await axe(page)).analyze();
      expect(results.violations, `axe, ${colorScheme} mode`).toEqual([]);
    }
  });
});

test.describe("client navigations for screen readers", () => {
  const announcer = (page: Page) => page.locator("#route-announcer");

  test("the skip link is the first Tab stop, shows itself, and takes the next Tab into the content", async ({
    page,
  }) => {
    const response = await page.goto(A_STATIC_PAGE);
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    const box = await skip.boundingBox();
    expect(box?.width).toBeGreaterThan(50);
    expect(box?.height).toBeGreaterThan(20);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    // Past the header and its navigation: into the page's own content, when it has something to focus.
    await expect(page.locator(".site-header :focus")).toHaveCount(0);
    if ((await page.locator("main").locator("a[href], button, input, select, textarea").count()) > 0)
      await expect(page.locator("main :focus")).toHaveCount(1);
    // A fragment is not a new page: nothing is announced.
    await expect(announcer(page)).toHaveText("");
  });

  test("the site navigation marks the current page (NavLink), one link at a time", async ({ page }) => {
    const nav = page.getByRole("navigation", { name: "Main" });
    const response = await page.goto(NAV_LINKS[0]?.to ?? "/");
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    const links = nav.getByRole("link");
    const count = await links.count();
    expect(count).toBe(NAV_LINKS.length);
    // Each of its links, followed client-side, marks itself and no other.
    for (let index = 1; index <= count; index++) {
      const link = links.nth(index % count);
      await link.click();
      await expect(link).toHaveAttribute("aria-current", "page");
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    }
  });

  test("Items stays current on an item's page", async ({ page }) => {
    const current = page.getByRole("navigation", { name: "Main" }).locator('[aria-current="page"]');
    const response = await page.goto("/items");
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await expect(current).toHaveText(["Items"]);
    await page.getByRole("link", { name: "Lagos" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lagos");
    await expect(current).toHaveText(["Items"]);
  });

  test("the navigation controls' loading status is a live region there before it speaks", async ({
    page,
  }) => {
    const { push } = controlTargets("/now");
    if (!push) throw new Error("/now's controls need another page to push");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Page data held until released; no link prefetches it before the tap (a pre-rendered page's could).
    await linksNeverVisible(page);
    await page.route(`**${push}.data*`, async (route) => {
      await held;
      await route.continue();
    });
    const response = await page.goto("/now");
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    const status = page.getByRole("region", { name: "Navigation controls" }).getByRole("status");
    await expect(status).toHaveText("");
    await page.getByRole("button", { name: `Push ${push}` }).click();
    await expect(status).toHaveText("Loading…");
    release();
    await expect(page).toHaveURL((url) => url.pathname === push);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Now");
  });

  for (const { path, last } of [
    { path: "/now", last: `BUTTON Prefetch ${controlTargets("/now").prefetch}` },
    { path: "/messages", last: "BUTTON Post message" },
  ]) {
    test(`every Tab stop on ${path} shows a focus ring`, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      const seen: string[] = [];
      for (let stop = 0; stop < 20; stop++) {
        await page.keyboard.press("Tab");
        const focused = await page.evaluate(() => {
          const element = document.activeElement;
          if (!element || element === document.body) return null;
          const style = getComputedStyle(element);
          return {
            name: `${element.tagName} ${element.textContent?.trim()}`,
            ring: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2,
          };
        });
        if (!focused) break;
        seen.push(focused.name);
        expect(focused.ring, `focus ring on ${focused.name}`).toBe(true);
      }
      expect(seen[0]).toBe("A Skip to content");
      expect(seen.at(-1)).toBe(last);
    });
  }
});

test.describe("the messages form for screen readers", () => {
  const formStatus = (page: Page) => page.locator(".form-status");

  test("the browser's check moves focus to the first invalid field and announces the errors", async ({
    page,
  }) => {
    await page.goto("/messages");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(formStatus(page)).toHaveAttribute("role", "status");
    await expect(formStatus(page)).toHaveText("Your message was not posted: 2 fields need correcting.");

    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByLabel("Message", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Message", { exact: true })).toHaveAccessibleDescription("Write a message.");
    await expect(formStatus(page)).toHaveText("Your message was not posted: 1 field needs correcting.");
  });

  test("the server's 400 moves focus to the first invalid field and announces the errors", async ({
    page,
    pageProblems,
  }) => {
    pageProblems.expect(ERROR_STATUS);
    // Passes the browser's check, then reaches the server blank: only the server can refuse it.
    await page.route("**/messages.data*", async (route) => {
      const body = new URLSearchParams(route.request().postData() ?? "");
      body.set("name", " ");
      await route.continue({ postData: body.toString() });
    });
    await page.goto("/messages");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByLabel("Message", { exact: true }).fill("refused by the server");
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST"),
      page.getByRole("button", { name: "Post message" }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(formStatus(page)).toHaveText("Your message was not posted: 1 field needs correcting.");
  });

  test("a stored post is announced and focus stays on the control that sent it", async ({ page }) => {
    await page.goto("/messages");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByLabel("Message", { exact: true }).fill(unique("posted with a click"));
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(formStatus(page)).toHaveText("Message posted.");
    await expect(page.getByRole("button", { name: "Post message" })).toBeFocused();
    // The same page again: no page announcement, focus not taken to the h1.
    await expect(page.locator("#route-announcer")).toHaveText("");

    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByLabel("Message", { exact: true }).fill(unique("posted with Enter"));
    await page.getByLabel("Name", { exact: true }).press("Enter");
    await expect(formStatus(page)).toHaveText("Message posted.");
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the 400 page puts focus on the first invalid field", async ({ page, pageProblems }) => {
      pageProblems.expect(ERROR_STATUS);
      await page.goto("/messages");
      await page.getByLabel("Name", { exact: true }).fill("Ada");
      await page.getByRole("button", { name: "Post message" }).click();
      await expect(page.getByText("Write a message.")).toBeVisible();
      await expect(page.getByLabel("Message", { exact: true })).toBeFocused();
    });
  });
});
