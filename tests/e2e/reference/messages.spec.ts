import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { launchWithBackForwardCache } from "edge-platform/testing";
import {
  expect,
  isSameDocument,
  markDocument,
  test,
  waitForHydration,
} from "edge-platform/testing/playwright";

const BAD_REQUEST = /Failed to load resource: the server responded with a status of (400|403)/;
const CONFLICT = /Failed to load resource: the server responded with a status of 409/;
const ALREADY_USED =
  "This form was already used for a different message, so yours was not posted. Your text is still here: send again to post it.";
/** The second site has no favicon. */
const NO_FAVICON = /Failed to load resource: the server responded with a status of 404/;

function unique(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 10)}`;
}

/** How many times a message text appears in the list, read fresh from the server. */
async function countInList(page: Page, text: string): Promise<number> {
  const html = await (await page.request.get("/messages")).text();
  return html.split(`<p dir="auto">${text}</p>`).length - 1;
}

test.describe("with JavaScript", () => {
  test("a message is posted without a document load, the list shows it and the form is ready again", async ({
    page,
  }) => {
    const text = unique("hello from the browser");
    await page.goto("/messages");
    await waitForHydration(page);
    await markDocument(page);
    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
    expect(await isSameDocument(page)).toBe(true);
    expect(await countInList(page, text)).toBe(1);
  });

  test("invalid input shows the errors next to the fields and keeps what was typed", async ({ page }) => {
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") requests.push(request.url());
    });
    await page.goto("/messages");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("   ");
    await page.getByLabel("Message", { exact: true }).fill("typed and kept");
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByText("Enter your name.")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("typed and kept");
    // The browser applied the server's rules itself: nothing was sent.
    expect(requests).toEqual([]);
  });

  test("a right-to-left name is shown isolated: the page's text after it stays after it", async ({
    page,
  }) => {
    const text = unique("isolated");
    await page.goto("/messages");
    await waitForHydration(page);
    // Hebrew then "!": without isolation the time (digits) after a right-to-left name is drawn before it.
    await page.getByLabel("Name", { exact: true }).fill("\u05E9\u05E8\u05D4!");
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Post message" }).click();
    const item = page.getByRole("listitem").filter({ hasText: text });
    await expect(item).toBeVisible();
    const name = await item.locator("bdi").boundingBox();
    const time = await item.locator("time").boundingBox();
    expect(name && time && time.x >= name.x + name.width - 1).toBe(true);
    await expect(item.locator("p")).toHaveAttribute("dir", "auto");
  });

  test("text that would reverse the page or show nothing is refused before sending, values kept", async ({
    page,
  }) => {
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") requests.push(request.url());
    });
    await page.goto("/messages");
    await waitForHydration(page);
    const name = page.getByLabel("Name", { exact: true });
    const message = page.getByLabel("Message", { exact: true });
    await name.fill("Eve\u202E");
    await message.fill("kept");
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(
      page.getByText("Remove the characters that change the direction of the text."),
    ).toBeVisible();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await name.fill("\u3164");
    await message.fill("\u200B");
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByText("The name only has characters that do not show.")).toBeVisible();
    await expect(page.getByText("The message only has characters that do not show.")).toBeVisible();
    await expect(name).toHaveValue("\u3164");
    expect(requests).toEqual([]);
  });

  test("while the message is being posted, the button says so and cannot be pressed again", async ({
    page,
  }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/messages.data*", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.goto("/messages");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Eve");
    await page.getByLabel("Message", { exact: true }).fill(unique("pending"));
    await page.getByRole("button", { name: "Post message" }).click();
    const pending = page.getByRole("button", { name: "Posting…" });
    await expect(pending).toBeDisabled();
    await expect(pending).toHaveAttribute("aria-busy", "true");
    release();
    await expect(page.getByRole("button", { name: "Post message" })).toBeEnabled();
  });

  test("a double click stores the message once", async ({ page }) => {
    const text = unique("double click");
    await page.goto("/messages");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Bo");
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Post message" }).dblclick();
    await expect(page.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
    await page.waitForTimeout(300);
    expect(await countInList(page, text)).toBe(1);
  });
});

test.describe("a submission id used again", () => {
  test("with JavaScript: the 409 keeps the text and brings a fresh id, and sending again stores it", async ({
    page,
    request,
    pageProblems,
  }) => {
    pageProblems.expect(CONFLICT);
    const theirs = unique("theirs, first");
    const mine = unique("mine, after the conflict");
    await page.goto("/messages");
    await waitForHydration(page);
    await markDocument(page);
    const submissionId = page.locator('input[name="submissionId"]');
    const id = await submissionId.inputValue();
    // The same page served from a cache to someone else, who posts it first.
    const first = await request.post("/messages", {
      form: { submissionId: id, name: "Zoe", text: theirs },
      maxRedirects: 0,
    });
    expect(first.status()).toBe(303);

    await page.getByLabel("Name", { exact: true }).fill("Ada");
    await page.getByLabel("Message", { exact: true }).fill(mine);
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByText(ALREADY_USED)).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue(mine);
    // React Router does not re-run the loader after a 4xx: the fresh id comes with the action's answer.
    await expect(submissionId).not.toHaveValue(id);

    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByRole("list", { name: "Latest messages" }).getByText(mine)).toBeVisible();
    await expect(page.getByText(ALREADY_USED)).toBeHidden();
    expect(await isSameDocument(page)).toBe(true);
    expect(await countInList(page, mine)).toBe(1);
    expect(await countInList(page, theirs)).toBe(1);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the 409 page keeps the typed values and brings a fresh id, and sending again stores it", async ({
      page,
      request,
      pageProblems,
    }) => {
      pageProblems.expect(CONFLICT);
      const theirs = unique("theirs, no script");
      const mine = unique("mine, no script");
      const submissionId = page.locator('input[name="submissionId"]');
      await page.goto("/messages");
      const id = await submissionId.inputValue();
      // The same form posted first by someone else (a copy of the page, a crafted post).
      expect(
        (
          await request.post("/messages", {
            form: { submissionId: id, name: "Zoe", text: theirs },
            maxRedirects: 0,
          })
        ).status(),
      ).toBe(303);

      await page.getByLabel("Name", { exact: true }).fill("Cy");
      await page.getByLabel("Message", { exact: true }).fill(mine);
      const [refused] = await Promise.all([
        page.waitForResponse((candidate) => candidate.request().method() === "POST"),
        page.getByRole("button", { name: "Post message" }).click(),
      ]);
      expect(refused.status()).toBe(409);
      await expect(page.getByText(ALREADY_USED)).toBeVisible();
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Cy");
      await expect(page.getByLabel("Message", { exact: true })).toHaveValue(mine);
      await expect(submissionId).not.toHaveValue(id);

      await page.getByRole("button", { name: "Post message" }).click();
      await expect(page).toHaveURL(/\/messages$/);
      await expect(page.getByRole("list", { name: "Latest messages" }).getByText(mine)).toBeVisible();
      expect(await countInList(page, theirs)).toBe(1);
      expect(await countInList(page, mine)).toBe(1);
    });
  });

  test("without JavaScript: post, go Back, edit the text, post again: both messages are stored once", async ({
    playwright,
    baseURL,
  }) => {
    // Back may restore the page from the back/forward cache, as browsers do (packages/edge-platform/tests/platform/browser/back-forward-cache.spec.ts).
    // Chromium does not restore a no-store page once cookies changed, and the post set the visitor's D1
    // bookmark cookie: today it loads a fresh form (a fresh id) and the post is stored. A browser that kept
    // the page would send the old id and get the 409 page, and sending again stores it. Either way nothing
    // is lost and nothing is stored twice.
    const browser = await launchWithBackForwardCache(playwright.chromium);
    const problems: string[] = [];
    try {
      const page = await browser.newPage({ baseURL, javaScriptEnabled: false });
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !CONFLICT.test(message.text())) problems.push(message.text());
      });
      const first = unique("first version");
      const edited = unique("edited version");
      await page.goto("/messages");
      await page.getByLabel("Name", { exact: true }).fill("Cy");
      await page.getByLabel("Message", { exact: true }).fill(first);
      await page.getByRole("button", { name: "Post message" }).click();
      await expect(page.getByRole("list", { name: "Latest messages" }).getByText(first)).toBeVisible();

      // A page restored from the back/forward cache fires no load event: wait for the navigation to commit only.
      await page.goBack({ waitUntil: "commit" });
      await expect(page.getByRole("button", { name: "Post message" })).toBeVisible();
      await page.getByLabel("Name", { exact: true }).fill("Cy");
      await page.getByLabel("Message", { exact: true }).fill(edited);
      const [answer] = await Promise.all([
        page.waitForResponse((candidate) => candidate.request().method() === "POST"),
        page.getByRole("button", { name: "Post message" }).click(),
      ]);
      expect([303, 409]).toContain(answer.status());
      if (answer.status() === 409) {
        await expect(page.getByText(ALREADY_USED)).toBeVisible();
        await expect(page.getByLabel("Message", { exact: true })).toHaveValue(edited);
        await page.getByRole("button", { name: "Post message" }).click();
      }
      await expect(page).toHaveURL(/\/messages$/);
      await expect(page.getByRole("list", { name: "Latest messages" }).getByText(edited)).toBeVisible();
      expect(await countInList(page, first)).toBe(1);
      expect(await countInList(page, edited)).toBe(1);
    } finally {
      await browser.close();
    }
    expect(problems, "uncaught page errors or console errors").toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a plain form post stores the message and redirects back to the list", async ({ page }) => {
    const text = unique("no script");
    await page.goto("/messages");
    await page.getByLabel("Name", { exact: true }).fill("Cy");
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page).toHaveURL(/\/messages$/);
    await expect(page.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
  });

  test("invalid input answers 400 with the errors and the typed values", async ({ page, pageProblems }) => {
    pageProblems.expect(BAD_REQUEST);
    await page.goto("/messages");
    await page.getByLabel("Name", { exact: true }).fill("   ");
    await page.getByLabel("Message", { exact: true }).fill("kept as typed");
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST"),
      page.getByRole("button", { name: "Post message" }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(page.getByText("Enter your name.")).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("kept as typed");
  });

  test("a double click stores the message once", async ({ page }) => {
    const text = unique("no script double");
    await page.goto("/messages");
    await page.getByLabel("Name", { exact: true }).fill("Di");
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Post message" }).dblclick();
    await expect(page).toHaveURL(/\/messages$/);
    await page.waitForTimeout(300);
    expect(await countInList(page, text)).toBe(1);
  });
});

test.describe("a page on another origin", () => {
  let other: Server;
  let otherOrigin: string;

  test.beforeAll(async ({ baseURL }) => {
    // A second local site with a form that posts to this app's action.
    other = createServer((_, response) => {
      response.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html>
        <form method="post" action="${baseURL}/messages">
          <input name="submissionId" value="00000000-0000-4000-8000-000000000000">
          <input name="name" value="Mallory"><input name="text" value="forged from elsewhere">
          <button>Win a prize</button>
        </form>`);
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => other?.close(resolve));
  });

  test("posting to the action is refused and nothing is stored", async ({ page, pageProblems }) => {
    pageProblems.expect(BAD_REQUEST);
    pageProblems.expect(NO_FAVICON);
    await page.goto(otherOrigin);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url().endsWith("/messages")),
      page.getByRole("button", { name: "Win a prize" }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(page.getByText("Forbidden: this request comes from another site.")).toBeVisible();
    expect(await countInList(page, "forged from elsewhere")).toBe(0);
  });
});
