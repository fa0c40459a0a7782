import { isRouteErrorResponse } from "react-router";

/**
 * What the browser learns of an uncaught server exception: its digest and nothing else (packages/edge-platform/docs/contract.md C1).
 * It travels as the data of a 500 route error response, the one error shape React Router serializes
 * to the browser without replacing it ("Unexpected Server Error") in production.
 */
export type ServerErrorPayload = { digest: string };

export function isServerErrorResponse(error: unknown): error is { status: number; data: ServerErrorPayload } {
  return (
    isRouteErrorResponse(error) &&
    error.status >= 500 &&
    typeof error.data === "object" &&
    error.data !== null &&
    typeof (error.data as Partial<ServerErrorPayload>).digest === "string"
  );
}

/**
 * React Router's own stand-in, in the browser, for a server failure it streamed (a loader's deferred promise
 * that rejected): production sanitizes the error to `Error("Unexpected Server Error")` without a stack, and
 * the browser decodes it as that. The Worker reported the failure already, with its digest
 * (with-error-digests.server.ts records a streamed rejection); reported again by the browser it was one
 * failure with two events and a visit counted as a crash (issue 42). Nothing else makes such an error: one the
 * browser makes itself has a stack.
 */
export function isStreamedServerFailure(error: unknown): boolean {
  return error instanceof Error && error.message === SANITIZED_MESSAGE && error.stack === undefined;
}

/** What React Router puts in place of a server error's message in production (its `sanitizeError`). */
const SANITIZED_MESSAGE = "Unexpected Server Error";
