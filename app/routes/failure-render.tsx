import { assertFailureRoutesEnabled } from "edge-platform/server";
import type { Route } from "./+types/failure-render";

// Used on a client navigation only: the server answers this page with the error page (the root's meta).
export const meta: Route.MetaFunction = () => [
  { title: "Server render failure · Edge app" },
  { name: "description", content: "A reference failure: this page throws while rendering on the server." },
];

export function loader({ context }: Route.LoaderArgs) {
  assertFailureRoutesEnabled(context);
  return null;
}

/** Throws only while rendering on the server; a client-side navigation here renders normally. */
export default function FailureRender() {
  if (typeof document === "undefined") {
    throw new Error("Reference failure: this component throws while rendering on the server");
  }
  return <h1>Rendered in the browser</h1>;
}
