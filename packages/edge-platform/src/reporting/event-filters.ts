/**
 * packages/edge-platform/docs/contract.md C8, as pure decisions shared by the Worker's and the browser's SDK: what error reporting leaves out.
 * Typed by the fields they read, so both SDKs' event types fit.
 */

import { isControlFlow } from "../errors/control-flow";
import { scrubReport } from "./report-privacy";

type ErrorEventLike = { exception?: { values?: { type?: string }[] } };
type EventHintLike = { originalException?: unknown };
type TransactionEventLike = {
  transaction?: string;
  contexts?: {
    trace?: { op?: string; data?: Record<string, unknown> };
    response?: { status_code?: number };
  };
};

/**
 * A thrown redirect (or any thrown Response / `data()` / route error response) is control flow
 * (control-flow.ts); an event without the thrown value is judged by its exception's type.
 */
export function isControlFlowEvent(event: ErrorEventLike, hint: EventHintLike): boolean {
  if (isControlFlow(hint.originalException)) return true;
  return (event.exception?.values ?? []).some(
    (value) => value.type === "ErrorResponseImpl" || value.type === "Response",
  );
}

/** 404 page transactions, and navigations that never resolved to a route (e.g. one named after `-1`). */
export function isDroppedTransaction(event: TransactionEventLike): boolean {
  const trace = event.contexts?.trace;
  const data = trace?.data ?? {};
  if (Number(data["http.response.status_code"] ?? event.contexts?.response?.status_code) === 404) return true;
  const isNavigation = trace?.op === "navigation" || trace?.op === "pageload";
  return isNavigation && (!event.transaction?.startsWith("/") || data["route.resolved"] === false);
}

/**
 * React Router's own stand-in, in the browser, for a server failure it streamed (a loader's deferred promise
 * that rejected): production sanitizes the error to `Error("Unexpected Server Error")` without a stack, and
 * the browser decodes it as that. The Worker reported the failure already, with its digest (its route guard
 * records a streamed rejection); reported again by the browser it was one failure with two events and a
 * visit counted as a crash (issue 42). Nothing else makes such an error: one the browser makes has a stack.
 */
export function isStreamedServerFailure(error: unknown): boolean {
  return error instanceof Error && error.message === "Unexpected Server Error" && error.stack === undefined;
}

/**
 * What both SDKs send of an error: nothing for control flow (C8), nothing for a server failure the browser
 * only received (the Worker reported it), and never the person's data.
 */
export function beforeSend<E extends ErrorEventLike>(event: E, hint: EventHintLike): E | null {
  if (isControlFlowEvent(event, hint) || isStreamedServerFailure(hint.originalException)) return null;
  return scrubReport(event);
}

/** What both SDKs send of a transaction (with its spans): C8's leave-outs dropped, the rest scrubbed. */
export function beforeSendTransaction<E extends TransactionEventLike>(event: E): E | null {
  return isDroppedTransaction(event) ? null : scrubReport(event);
}

/**
 * Spans the browser SDK sends on their own, outside any transaction (INP, after an interaction): they never
 * pass `beforeSendTransaction`, so they are scrubbed here. Never dropped: the SDK does not allow it.
 */
export function beforeSendSpan<S>(span: S): S {
  return scrubReport(span);
}

/** Breadcrumbs (navigations, fetches, console lines) are scrubbed as they are recorded. */
export function beforeBreadcrumb<B>(breadcrumb: B): B {
  return scrubReport(breadcrumb);
}
