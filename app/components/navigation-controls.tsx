import { useAppRouter } from "edge-platform/react";
import { useNavigation } from "react-router";

/** Visible controls for each router verb (packages/edge-platform/docs/contract.md C2), on the reference pages. */
export function NavigationControls() {
  const router = useAppRouter();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="navigation-controls" aria-label="Navigation controls">
      <button type="button" onClick={() => router.back()}>
        Back
      </button>
      <button type="button" onClick={() => router.forward()}>
        Forward
      </button>
      <button type="button" onClick={() => router.refresh()}>
        Refresh
      </button>
      <button type="button" onClick={() => router.push("/items")}>
        Push /items
      </button>
      <button type="button" onClick={() => router.replace("/glossary")}>
        Replace with /glossary
      </button>
      <button type="button" onClick={() => router.prefetch("/about")}>
        Prefetch /about
      </button>
      {/* Always there: a live region added together with its text is often not read out. */}
      <span role="status">{busy ? "Loading…" : ""}</span>
    </section>
  );
}
