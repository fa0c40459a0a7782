import { expect, test } from "vitest";
import { printedWorkerLog } from "../../src/testing/worker-logs";

function serverErrorLine(path: string): string {
  return JSON.stringify({
    level: "error",
    event: "server_error",
    digest: "2j6ao89200ic9",
    method: "GET",
    path,
    error: { name: "Error", message: "Reference failure", stack: "Error: Reference failure\n    at loader" },
  });
}

test("a server error the tests provoke on a reference failure route is one labelled line, without its stack", () => {
  const printed = printedWorkerLog({
    timestamp: 0,
    level: "error",
    message: serverErrorLine("/failures/loader.data"),
  });
  expect(printed).toEqual({
    stream: "stdout",
    text: "expected server_error 2j6ao89200ic9: GET /failures/loader.data (a reference failure route)",
  });
});

test("a server error anywhere else is printed in full, on stderr", () => {
  const message = serverErrorLine("/messages");
  expect(printedWorkerLog({ timestamp: 0, level: "error", message })).toEqual({
    stream: "stderr",
    text: message,
  });
});

test("other lines are printed as logged: errors and warnings on stderr, the rest on stdout", () => {
  expect(printedWorkerLog({ timestamp: 0, level: "warn", message: "careful" })).toEqual({
    stream: "stderr",
    text: "careful",
  });
  expect(printedWorkerLog({ timestamp: 0, level: "info", message: "{not json" })).toEqual({
    stream: "stdout",
    text: "{not json",
  });
  const notAnError = JSON.stringify({ event: "request", path: "/failures/loader" });
  expect(printedWorkerLog({ timestamp: 0, level: "log", message: notAnError })).toEqual({
    stream: "stdout",
    text: notAnError,
  });
});
