import { describe, expect, test } from "vitest";
import { beforeBreadcrumb, beforeSend, beforeSendTransaction } from "../../src/reporting/event-filters";
import { REPORTED_QUERY_PARAMS, scrubReport, scrubUrl } from "../../src/reporting/report-privacy";

// Data that looks real: none of it may survive in anything the SDKs send.
const EMAIL = "jane.doe@example.com";
const TOKEN = "tok_live_5f2a9c81d4e6";
const ID_NUMBER = "123-45-6789";
const SECRETS = [EMAIL, encodeURIComponent(EMAIL), TOKEN, ID_NUMBER];
const QUERY = `email=${encodeURIComponent(EMAIL)}&token=${TOKEN}&ssn=${ID_NUMBER}`;
const PAGE = `https://app.example/items/ams?${QUERY}#${EMAIL}`;

function expectNoSecrets(value: unknown) {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe("scrubUrl", () => {
  test("drops every query parameter and the fragment by default", () => {
    expect(scrubUrl(PAGE)).toBe("https://app.example/items/ams");
    expect(scrubUrl(`/items/ams.data?${QUERY}`)).toBe("/items/ams.data");
    expect(scrubUrl(`Failed to fetch /now?${QUERY} (502)`)).toBe("Failed to fetch /now (502)");
  });

  test("keeps the values of allow-listed parameters only, by exact name", () => {
    expect(scrubUrl(`/items?page=2&email=${EMAIL}&pages=9`, ["page"])).toBe("/items?page=2");
  });

  test("leaves text without a URL, and URLs without query or fragment, as they are", () => {
    expect(scrubUrl("Is this ok? #1")).toBe("Is this ok? #1");
    expect(scrubUrl("https://app.example/assets/root-Bx.js")).toBe("https://app.example/assets/root-Bx.js");
  });

  test("the allow-list is empty by default", () => {
    expect(REPORTED_QUERY_PARAMS).toEqual([]);
  });
});

describe("scrubReport, on every field the SDKs fill", () => {
  const event = {
    event_id: "0".repeat(32),
    transaction: `/items/ams?${QUERY}`,
    message: `GET ${PAGE} failed`,
    request: {
      url: PAGE,
      query_string: QUERY,
      cookies: { session: TOKEN },
      data: { name: "Jane", email: EMAIL },
      headers: { Referer: PAGE, Cookie: `session=${TOKEN}`, "User-Agent": "Chromium" },
    },
    user: { ip_address: "203.0.113.9", email: EMAIL },
    contexts: {
      trace: { data: { "http.query": QUERY, "url.full": PAGE, "http.url": PAGE, "route.resolved": true } },
    },
    spans: [
      {
        description: `GET /items/ams.data?${QUERY}`,
        data: { "url.query": `?${QUERY}`, "http.response.status_code": 200 },
      },
    ],
    breadcrumbs: [
      { category: "navigation", data: { from: `/items?${QUERY}`, to: `/now#${EMAIL}` } },
      { category: "fetch", data: { url: `/now.data?${QUERY}`, method: "GET" } },
    ],
    sdk: { name: "sentry.javascript.react", settings: { infer_ip: "auto" } },
    exception: { values: [{ type: "Error", value: `Cannot load ${PAGE}` }] },
  };

  test("nothing of the person's data is left, anywhere", () => {
    expectNoSecrets(scrubReport(event));
  });

  test("what is not personal stays: paths, methods, statuses, the user agent, the error", () => {
    const scrubbed = scrubReport(event);
    expect(scrubbed.request).toEqual({
      url: "https://app.example/items/ams",
      query_string: "",
      headers: { Referer: "https://app.example/items/ams", "User-Agent": "Chromium" },
    });
    expect(scrubbed.transaction).toBe("/items/ams");
    expect(scrubbed.contexts.trace.data["route.resolved"]).toBe(true);
    expect(scrubbed.spans[0]?.data["http.response.status_code"]).toBe(200);
    expect(scrubbed.breadcrumbs[0]?.data).toEqual({ from: "/items", to: "/now" });
    expect(scrubbed.exception.values[0]?.value).toBe("Cannot load https://app.example/items/ams");
  });

  test("no IP address, and Sentry is told not to infer one", () => {
    const scrubbed = scrubReport(event) as Record<string, unknown>;
    expect(scrubbed.user).toBeUndefined();
    expect(scrubbed.sdk).toMatchObject({ settings: { infer_ip: "never" } });
  });

  test("query strings sent as [name, value] pairs keep allow-listed pairs only", () => {
    const pairs = {
      request: {
        query_string: [
          ["page", "2"],
          ["email", EMAIL],
        ],
      },
    };
    expect(scrubReport(pairs, ["page"]).request.query_string).toEqual([["page", "2"]]);
  });

  test("an allow-listed parameter keeps its value everywhere", () => {
    const scrubbed = scrubReport(
      { request: { url: `/items?page=2&token=${TOKEN}`, query_string: `page=2&token=${TOKEN}` } },
      ["page"],
    );
    expect(scrubbed.request).toEqual({ url: "/items?page=2", query_string: "page=2" });
  });
});

describe("scrubReport and the SDK's own bookkeeping (sdkProcessingMetadata)", () => {
  class Scope {
    client = { options: { dsn: "https://key@o1.ingest.sentry.io/1" }, url: PAGE };
  }
  const scope = new Scope();
  const transaction = {
    transaction: "GET /items/:id",
    request: { url: PAGE },
    sdkProcessingMetadata: {
      capturedSpanScope: scope,
      dynamicSamplingContext: { trace_id: "a".repeat(32), transaction: `/items/ams?${QUERY}` },
    },
  };

  test("its scopes are handed back as they are, not walked and copied (they never leave the SDK)", () => {
    const scrubbed = scrubReport(transaction);
    expect(scrubbed.sdkProcessingMetadata.capturedSpanScope).toBe(scope);
    expect(scrubbed.sdkProcessingMetadata.capturedSpanScope).toBeInstanceOf(Scope);
  });

  test("its dynamic sampling context, which becomes the envelope's trace header, is scrubbed", () => {
    const scrubbed = scrubReport(transaction);
    expect(scrubbed.sdkProcessingMetadata.dynamicSamplingContext).toEqual({
      trace_id: "a".repeat(32),
      transaction: "/items/ams",
    });
    expect(scrubbed.request.url).toBe("https://app.example/items/ams");
    expect(transaction.request.url).toBe(PAGE);
  });
});

describe("both SDKs' hooks scrub what they let through", () => {
  test("errors, transactions and breadcrumbs", () => {
    const error = { exception: { values: [{ type: "Error" }] }, request: { url: PAGE } };
    expectNoSecrets(beforeSend(error, {}));
    expectNoSecrets(
      beforeSendTransaction({
        transaction: `/items?${QUERY}`,
        contexts: { trace: { op: "http.server", data: { "url.full": PAGE } } },
      }),
    );
    expectNoSecrets(beforeBreadcrumb({ category: "navigation", data: { from: PAGE, to: PAGE } }));
  });
});
