import { data, redirect } from "react-router";
import { findEdgeLocation } from "../data/edge-locations";
import type { Route } from "./+types/item";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.location.city ?? "Edge location"} · Edge app` },
];

export function loader({ params }: Route.LoaderArgs) {
  // One URL per item: /items/AMS is control flow to /items/ams, never an error.
  const canonicalId = params.id.toLowerCase();
  if (canonicalId !== params.id) throw redirect(`/items/${canonicalId}`, 301);
  const location = findEdgeLocation(params.id);
  if (!location) throw data(null, { status: 404 });
  return { location, renderedAt: new Date().toISOString() };
}

export default function Item({ loaderData }: Route.ComponentProps) {
  const { location, renderedAt } = loaderData;
  return (
    <>
      <h1>{location.city}</h1>
      <p>
        Edge location <code>{location.id.toUpperCase()}</code> in {location.country}, rendered at{" "}
        <time dateTime={renderedAt}>{renderedAt}</time>.
      </p>
    </>
  );
}
