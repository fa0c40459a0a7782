import { expect, test } from "vitest";
import { receivedEvents, receivedTransactions } from "../../src/testing/ingest-stand-in.ts";
import { servedWithReporting } from "../support/reporting-server.ts";

// The Worker's reports carry none of the visitor's data: a page URL, a Referer and cookies with an email
// address, a token and an id number, on a server error and on a traced request (packages/edge-platform/src/reporting/
// report-privacy.ts). The stand-in's raw bytes are searched, so no field can hide it.

const EMAIL = "jane.doe@example.com";
const TOKEN = "tok_live_5f2a9c81d4e6";
const ID_NUMBER = "123-45-6789";
const SECRETS = [EMAIL, encodeURIComponent(EMAIL), TOKEN, ID_NUMBER, "203.0.113.9"];
const QUERY = `email=${encodeURIComponent(EMAIL)}&token=${TOKEN}&ssn=${ID_NUMBER}`;

const reporting = servedWithReporting({ SENTRY_TRACES_SAMPLE_RATE: "1" });

function getWithPersonalData(path: string) {
  return fetch(new URL(`${path}?${QUERY}`, reporting.app.url), {
    headers: {
      Referer: new URL(`/items?${QUERY}`, reporting.app.url).href,
      Cookie: `session=${TOKEN}; email=${EMAIL}`,
      "CF-Connecting-IP": "203.0.113.9",
    },
    signal: AbortSignal.timeout(10_000),
  });
}

function expectNothingPersonalReceived() {
  const bytes = Buffer.concat(reporting.ingest.received.map((request) => request.body)).toString("utf8");
  for (const secret of SECRETS) expect(bytes, secret).not.toContain(secret);
}

test("a server error's report and its transaction carry no query, Referer query, cookie or IP", async () => {
  expect((await getWithPersonalData("/failures/loader")).status).toBe(500);
  await reporting.ingest.waitFor(2);
  await new Promise((resolve) => setTimeout(resolve, 750));
  expect(receivedEvents(reporting.ingest.received)).toHaveLength(1);
  expect(receivedTransactions(reporting.ingest.received).length).toBeGreaterThan(0);
  expectNothingPersonalReceived();
  const [event] = receivedEvents(reporting.ingest.received) as { request?: { url?: string } }[];
  expect(event?.request?.url).toMatch(/\/failures\/loader$/);
});

test("a traced page and its data request carry none of it either", async () => {
  expect((await getWithPersonalData("/now")).status).toBe(200);
  expect((await getWithPersonalData("/items/ams.data")).status).toBe(200);
  await reporting.ingest.waitFor(2);
  await new Promise((resolve) => setTimeout(resolve, 750));
  expect(receivedTransactions(reporting.ingest.received)).toHaveLength(2);
  expectNothingPersonalReceived();
});

test("a failed post is reported without the form's contents, credentials, cookies or IP", async () => {
  // The fixture's /failures/headers: its action runs, then the route's headers export throws (a server error).
  const response = await fetch(new URL("/failures/headers", reporting.app.url), {
    method: "POST",
    headers: {
      Origin: reporting.app.url.origin,
      Cookie: `session=${TOKEN}`,
      Authorization: `Bearer ${TOKEN}`,
      "CF-Connecting-IP": "203.0.113.9",
      "User-Agent": "reporting-test",
    },
    body: new URLSearchParams({ name: "Ada Lovelace", email: EMAIL, text: "a private message to nobody" }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(500);
  await reporting.ingest.waitFor(2);
  await new Promise((resolve) => setTimeout(resolve, 750));
  expect(receivedEvents(reporting.ingest.received)).toHaveLength(1);
  expect(receivedTransactions(reporting.ingest.received).length).toBeGreaterThan(0);
  const bytes = Buffer.concat(reporting.ingest.received.map((request) => request.body)).toString("utf8");
  // What the report does keep (so the search below reads the right bytes).
  expect(bytes).toContain("reporting-test");
  expectNothingPersonalReceived();
  for (const secret of ["a private message", "Ada Lovelace"]) expect(bytes, secret).not.toContain(secret);
});
