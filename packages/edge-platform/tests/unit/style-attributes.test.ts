import { describe, expect, test } from "vitest";
import { lint } from "../support/biome-lint";

// The pages' policy allows styles from stylesheets only, so the browser drops a `style` attribute without a
// word (packages/edge-platform/src/headers.ts). `npm run lint` refuses one in product code and says
// what to write instead (packages/edge-platform/lint/no-style-attribute.grit).

const WHAT_TO_WRITE = "style it in the route's stylesheet";

describe("the lint refuses style attributes in product code", () => {
  test("style={{...}} on an element in a route module", () => {
    const { ok, output } = lint(`export const a = () => <p style={{ color: "red" }}>Hello</p>;\n`);
    expect(ok).toBe(false);
    expect(output).toContain("The content security policy refuses `style` attributes");
    expect(output).toContain(WHAT_TO_WRITE);
    expect(output).toContain("app/routes/example.tsx:1:27");
  });

  test("a string style, and a style prop handed to a component, in a shared component", () => {
    const { ok, output } = lint(
      `import { Card } from "./card";\nexport const a = () => (\n  <>\n    <svg style="fill: red" />\n    <Card style={{ margin: 0 }} />\n  </>\n);\n`,
      "app/components/example.tsx",
    );
    expect(ok).toBe(false);
    expect(output).toContain("app/components/example.tsx:4:10");
    expect(output).toContain("app/components/example.tsx:5:11");
  });

  test("what to write instead passes: a class, styled in the route's stylesheet", () => {
    const { ok, output } = lint(
      `import "./example.css";\nexport const a = () => (\n  <p className="example-note" data-style="plain">\n    Hello\n  </p>\n);\n`,
    );
    expect(output).not.toContain("style");
    expect(ok).toBe(true);
  });
});
