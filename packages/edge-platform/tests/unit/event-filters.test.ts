import { data, UNSAFE_ErrorResponseImpl as ErrorResponse, redirect } from "react-router";
import { describe, expect, test } from "vitest";
import {
  beforeSend,
  beforeSendSpan,
  beforeSendTransaction,
  isControlFlowEvent,
  isDroppedTransaction,
} from "../../src/reporting/event-filters";

describe("redirect-control errors are not reported (packages/edge-platform/docs/contract.md C8)", () => {
  test.each([
    ["a thrown redirect", redirect("/login")],
    ["a thrown Response", new Response(null, { status: 404 })],
    ["a thrown data()", data(null, { status: 302 })],
    ["a route error response", new ErrorResponse(404, "Not Found", null)],
  ])("%s is dropped", (_, thrown) => {
    expect(isControlFlowEvent({}, { originalException: thrown })).toBe(true);
    expect(beforeSend({}, { originalException: thrown })).toBeNull();
  });

  test("an event whose exception is a serialized ErrorResponseImpl is dropped", () => {
    expect(isControlFlowEvent({ exception: { values: [{ type: "ErrorResponseImpl" }] } }, {})).toBe(true);
  });

  test("a real error is kept", () => {
    const event = { exception: { values: [{ type: "TypeError" }] } };
    expect(beforeSend(event, { originalException: new TypeError("x") })).toEqual(event);
  });
});

describe("a streamed server failure as the browser receives it is not reported again (the Worker did)", () => {
  const event = { exception: { values: [{ type: "Error" }] } };

  test("React Router's stand-in, Error('Unexpected Server Error') without a stack, is dropped", () => {
    const received = new Error("Unexpected Server Error");
    received.stack = undefined;
    expect(beforeSend(event, { originalException: received })).toBeNull();
  });

  test("the same message thrown in the browser (with a stack), or another error without one, is kept", () => {
    expect(beforeSend(event, { originalException: new Error("Unexpected Server Error") })).not.toBeNull();
    const other = new Error("Something else");
    other.stack = undefined;
    expect(beforeSend(event, { originalException: other })).not.toBeNull();
  });
});

describe("transactions left out (packages/edge-platform/docs/contract.md C8)", () => {
  test("a 404 page's transaction is dropped", () => {
    const event = {
      transaction: "/items/:id",
      contexts: { trace: { op: "pageload", data: { "http.response.status_code": 404 } } },
    };
    expect(isDroppedTransaction(event)).toBe(true);
  });

  test("a server transaction answered 404 is dropped", () => {
    expect(
      isDroppedTransaction({ transaction: "GET /x", contexts: { response: { status_code: 404 } } }),
    ).toBe(true);
  });

  test.each([
    ["named after a history delta", "-1", {}],
    ["named after nothing", undefined, {}],
    ["marked unresolved", "/items/:id", { "route.resolved": false }],
  ])("a navigation %s is dropped", (_, name, data) => {
    expect(isDroppedTransaction({ transaction: name, contexts: { trace: { op: "navigation", data } } })).toBe(
      true,
    );
  });

  test("a resolved navigation is kept", () => {
    const event = {
      transaction: "/items/:id",
      contexts: { trace: { op: "navigation", data: { "route.resolved": true } } },
    };
    expect(beforeSendTransaction(event)).toEqual(event);
  });

  test("a server transaction is kept", () => {
    const event = { transaction: "GET /now", contexts: { trace: { op: "http.server", data: {} } } };
    expect(beforeSendTransaction(event)).toEqual(event);
  });
});

test("a span sent on its own (INP) keeps its route and value, and loses query values in its element selector", () => {
  const span = {
    description: 'body > button[title="Again on /vitals/nrt?email=someone@example.com"]',
    op: "ui.interaction.click",
    data: {
      "sentry.transaction": "/vitals/:id",
      "browser.web_vital.inp.value": 136,
      "browser.web_vital.inp.target": 'body > button[title="Again on /vitals/nrt?email=someone@example.com"]',
      "user.ip_address": "203.0.113.9",
    },
  };
  expect(beforeSendSpan(span)).toEqual({
    description: 'body > button[title="Again on /vitals/nrt"]',
    op: "ui.interaction.click",
    data: {
      "sentry.transaction": "/vitals/:id",
      "browser.web_vital.inp.value": 136,
      "browser.web_vital.inp.target": 'body > button[title="Again on /vitals/nrt"]',
    },
  });
});
