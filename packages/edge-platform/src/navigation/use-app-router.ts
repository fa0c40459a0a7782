import { useMemo } from "react";
import { type To, useNavigate, useRevalidator } from "react-router";
import { usePrefetch } from "./navigation-client";

export type AppRouter = {
  /** Client navigation to `to`, adding a history entry. */
  push(to: To): Promise<void>;
  /** Client navigation to `to`, replacing the current history entry. */
  replace(to: To): Promise<void>;
  back(): Promise<void>;
  forward(): Promise<void>;
  /** Re-runs the current page's loaders: no document reload, client state kept. */
  refresh(): Promise<void>;
  /** Queues what a navigation to `to` needs (packages/edge-platform/docs/contract.md C5: bounded, stale times, save-data aware). */
  prefetch(to: To): void;
};

/** packages/edge-platform/docs/contract.md C2: the router verbs, on top of React Router. */
export function useAppRouter(): AppRouter {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const prefetch = usePrefetch();
  return useMemo(
    () => ({
      push: async (to) => navigate(to),
      replace: async (to) => navigate(to, { replace: true }),
      back: async () => navigate(-1),
      forward: async () => navigate(1),
      refresh: () => revalidate(),
      prefetch,
    }),
    [navigate, revalidate, prefetch],
  );
}
