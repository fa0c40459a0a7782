import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, expect, test } from "vitest";

// readFormData (src/http/form-data.server.ts) hands a multipart body to the runtime's own `Request.formData()`.
// Its property test (fuzz-read-form-data.test.ts) runs in Node, whose parser (undici) drops a U+FEFF that starts a
// field's name; the platform runs in workerd, which keeps it. This checks workerd's, for that case the fuzzer found.

let miniflare: Miniflare;

beforeAll(async () => {
  // Described in Miniflare 4's shape, which Miniflare 5 converts itself (as local-server/serve-build.ts does).
  const options = convertV4MiniflareOptions({
    workers: [
      {
        name: "form",
        compatibilityDate: "2026-10-12",
        modules: true,
        script: `export default { async fetch(request) { return Response.json([...(await request.formData()).entries()]); } };`,
      },
    ],
  });
  miniflare = new Miniflare({ ...options, telemetry: { enabled: false } });
}, 60_000);

afterAll(() => miniflare?.dispose());

test("workerd reads a multipart field whose name or value starts with U+FEFF exactly as sent", async () => {
  const fields = [
    ["\ufeff", ""],
    ["\ufeffname", "\ufeffvalue"],
    ["a\ufeff", "b"],
  ];
  const sent = new FormData();
  for (const [name, value] of fields) sent.append(name ?? "", value ?? "");
  const encoded = new Request("https://app.example/", { method: "POST", body: sent });
  const response = await miniflare.dispatchFetch("https://app.example/", {
    method: "POST",
    headers: { "Content-Type": encoded.headers.get("Content-Type") ?? "" },
    body: new Uint8Array(await encoded.arrayBuffer()),
  });
  expect(await response.json()).toEqual(fields);
});
