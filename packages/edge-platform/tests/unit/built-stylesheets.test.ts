import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { inlineStyleHashes } from "../../src/headers";
import { inlinableStylesheets } from "../../src/vite/built-stylesheets-module";

// packages/edge-platform/docs/decisions/022-inline-critical-css.md: the build's stylesheets, and the hashes a page's policy allows.

const BUILT = {
  "/assets/app-AAAAAAAA.css": { text: "p{color:red}", sha256: "APP=" },
  "/assets/other-BBBBBBBB.css": { text: "a{}", sha256: "OTHER=" },
};

describe("inlineStyleHashes", () => {
  test("the build's hash of each stylesheet the head inlines, by its data-href, once each", () => {
    const hrefs = ["/assets/other-BBBBBBBB.css", "/assets/app-AAAAAAAA.css", "/assets/app-AAAAAAAA.css"];
    expect(inlineStyleHashes(hrefs, BUILT)).toEqual(["OTHER=", "APP="]);
  });

  test("no hash for a style the build does not know, or for several files joined in one element", () => {
    const hrefs = ["", "/assets/unknown-CCCCCCCC.css", "/assets/app-AAAAAAAA.css /assets/other-BBBBBBBB.css"];
    expect(inlineStyleHashes(hrefs, BUILT)).toEqual([]);
    expect(inlineStyleHashes([], {})).toEqual([]);
  });
});

describe("inlinableStylesheets (the build)", () => {
  test("each stylesheet by the URL it is served at, with the base64 SHA-256 of its text", () => {
    const text = ":root{color-scheme:light dark}";
    expect(inlinableStylesheets("/", [["assets/app-AAAAAAAA.css", text]])).toEqual({
      "/assets/app-AAAAAAAA.css": { text, sha256: createHash("sha256").update(text).digest("base64") },
    });
  });

  test("leaves out what is not a stylesheet, and names a stylesheet React would rewrite (it has `<style`)", () => {
    const notInlinable: string[] = [];
    expect(
      inlinableStylesheets(
        "/",
        [
          ["assets/entry-AAAAAAAA.js", "x"],
          ["assets/odd-BBBBBBBB.css", 'a::after{content:"</style>"}'],
          ["assets/comment-CCCCCCCC.css", "/* inlined as a <STYLE> */p{}"],
        ],
        (fileName) => notInlinable.push(fileName),
      ),
    ).toEqual({});
    expect(notInlinable).toEqual(["assets/odd-BBBBBBBB.css", "assets/comment-CCCCCCCC.css"]);
  });

  test("inlines a stylesheet with a `<` that React leaves as it is", () => {
    const text = 'a::before{content:"<"}a[title^="<b"]{color:red}';
    expect(Object.keys(inlinableStylesheets("/", [["assets/lt-DDDDDDDD.css", text]]))).toEqual([
      "/assets/lt-DDDDDDDD.css",
    ]);
  });
});
