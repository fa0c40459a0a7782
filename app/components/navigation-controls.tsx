import { usePrefetch } from "edge-platform/react";
import { useNavigate, useNavigation, useRevalidator } from "react-router";

/**
 * Visible controls for each router verb (packages/edge-platform/docs/contract.md C2), on the reference pages:
 * React Router's own `useNavigate` and `useRevalidator`, and the platform's `usePrefetch` (the verb React
 * Router lacks).
 */
export function NavigationControls() {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const prefetch = usePrefetch();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="navigation-controls" aria-label="Navigation controls">
      <button type="button" onClick={() => navigate(-1)}>
        Back
      </button>
      <button type="button" onClick={() => navigate(1)}>
        Forward
      </button>
      <button type="button" onClick={() => revalidate()}>
        Refresh
      </button>
      <button type="button" onClick={() => navigate("/items")}>
        Push /items
      </button>
      <button type="button" onClick={() => navigate("/glossary", { replace: true })}>
        Replace with /glossary
      </button>
      <button type="button" onClick={() => prefetch("/about")}>
        Prefetch /about
      </button>
      {/* Always there: a live region added together with its text is often not read out. */}
      <span role="status">{busy ? "Loading…" : ""}</span>
    </section>
  );
}
