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
