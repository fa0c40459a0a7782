import { assertFailureRoutesEnabled } from "edge-platform/server";
import { useState } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/failure-client";

export const meta: Route.MetaFunction = () => [
  { title: "Client failure · Edge app" },
  { name: "description", content: "A reference failure: a button that throws in the browser." },
];

export function loader({ context }: Route.LoaderArgs) {
  assertFailureRoutesEnabled(context);
  return null;
}

export default function FailureClient() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error("Reference failure: this component throws in the browser after a click");
  return (
    <>
      <h1>Client failure</h1>
      <button type="button" onClick={() => setBroken(true)}>
        Throw in the browser
      </button>
      <p>
        Server failures, reached by client-side navigation: <Link to="/failures/loader">a loader throws</Link>
      </p>
    </>
  );
}
