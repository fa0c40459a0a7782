import { describe, expect, test } from "vitest";
import { receivedEvents, receivedTransactions } from "../../src/testing/ingest-stand-in.ts";
import { servedWithReporting } from "../support/reporting-server.ts";

// packages/edge-platform/docs/reporting.md, "Traces": server transactions are named by React Router's route pattern (one name per
// route, not per URL), for documents, page data and actions alike, and each loader, action and middleware has
// a span.

type Transaction = {
  transaction?: string;
  transaction_info?: { source?: string };
  contexts?: { trace?: { op?: string; data?: Record<string, unknown> } };
  spans?: { op?: string; description?: string; status?: string; data?: Record<string, unknown> }[];
};

const reporting = servedWithReporting({ SENTRY_TRACES_SAMPLE_RATE: "1" });

async function transactionOf(path: string, init: RequestInit = {}): Promise<Transaction> {
  const response = await fetch(new URL(path, reporting.app.url), { ...init, redirect: "manual" });
  await response.arrayBuffer();
  await reporting.ingest.waitFor(1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const transactions = receivedTransactions(reporting.ingest.received) as Transaction[];
  expect(transactions).toHaveLength(1);
  return transactions[0] as Transaction;
}

function spans(transaction: Transaction, op: string) {
  return (transaction.spans ?? []).filter((span) => span.op === op).map((span) => span.description);
}

describe("server transactions", () => {
  test("a document is named by its route pattern, with a span for each loader and middleware", async () => {
    const transaction = await transactionOf("/items/ams");
    expect(transaction.transaction).toBe("GET /items/:id");
    // Sentry's own key for a name's source: "route" groups by it and lets it into the trace's baggage.
    expect(transaction.transaction_info?.source).toBe("route");
    expect(transaction.contexts?.trace?.data?.["sentry.segment.name.source"]).toBe("route");
    expect(spans(transaction, "function.react-router.loader").sort()).toEqual(["root", "routes/item"]);
    expect(spans(transaction, "function.react-router.middleware")).toEqual(["root"]);
  });

  test("a loader that throws, and one that answers a 5xx, have failed spans; the others are ok", async () => {
    for (const path of ["/failures/loader", "/failures/status"]) {
      reporting.ingest.received.length = 0;
      const transaction = await transactionOf(path);
      const status = (description: string) =>
        transaction.spans?.find(
          (span) => span.op === "function.react-router.loader" && span.description === description,
        )?.status;
      expect(status(`routes/${path === "/failures/loader" ? "failure-loader" : "failure-status"}`)).toBe(
        "internal_error",
      );
      expect(status("root")).toBe("ok");
    }
  });

  test("another URL of the same route has the same name", async () => {
    expect((await transactionOf("/items/lhr")).transaction).toBe("GET /items/:id");
  });

  test("page data (.data) is named by the route, not by its URL", async () => {
    const transaction = await transactionOf("/items/ams.data");
    expect(transaction.transaction).toBe("GET /items/:id");
    expect(spans(transaction, "function.react-router.loader")).toContain("routes/item");
  });

  test("an action is named by its method and route, with a span of its own", async () => {
    const transaction = await transactionOf("/messages", {
      method: "POST",
      headers: { origin: reporting.app.url.origin, "content-type": "application/x-www-form-urlencoded" },
      body: "name=&text=",
    });
    expect(transaction.transaction).toBe("POST /messages");
    expect(spans(transaction, "function.react-router.action")).toEqual(["routes/messages"]);
  });

  // Contract C8 leaves out redirect-control *errors* and 404 transactions; a redirect or a 405 is a request the
  // Worker answered, kept for its rates (packages/edge-platform/docs/reporting.md, "what fails" table).
  test.each<[string, string, number, string]>([
    ["a redirect", "/items/AMS", 301, "GET"],
    ["a redirect asked as page data (React Router answers it 202)", "/items/AMS.data", 202, "GET"],
    ["a 405", "/now", 405, "PUT"],
  ])("%s: a transaction with its status, no error event", async (_, path, status, method) => {
    reporting.ingest.received.length = 0;
    const transaction = await transactionOf(path, { method });
    expect(transaction.contexts?.trace?.data?.["http.response.status_code"]).toBe(status);
    expect(receivedEvents(reporting.ingest.received)).toEqual([]);
  });

  test("a request the client abandons: its transaction, no error event", async () => {
    reporting.ingest.received.length = 0;
    // /slow's loader takes 100 ms: the client is gone before it answers.
    await fetch(new URL("/slow", reporting.app.url), { signal: AbortSignal.timeout(30) }).catch(() => {});
    await reporting.ingest.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedTransactions(reporting.ingest.received).map((t) => t.transaction)).toEqual(["GET /slow"]);
    expect(receivedEvents(reporting.ingest.received)).toEqual([]);
  });

  test("route spans carry the route, never the URL's values", async () => {
    const transaction = await transactionOf("/items/ams?secret=1");
    const text = JSON.stringify(transaction.spans);
    expect(text).toContain("/items/:id");
    expect(text).not.toContain("secret");
  });
});
