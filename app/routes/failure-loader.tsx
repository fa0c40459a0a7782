import { assertFailureRoutesEnabled } from "edge-platform/server";
import type { Route } from "./+types/failure-loader";

export function loader({ context }: Route.LoaderArgs) {
  assertFailureRoutesEnabled(context);
  throw new Error("Reference failure: this loader throws");
}

export default function FailureLoader() {
  return <h1>Unreachable: the loader always throws</h1>;
}
