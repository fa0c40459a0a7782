import { data, redirect } from "react-router";
import { findEdgeLocation } from "../data/edge-locations";
import type { Route } from "./+types/item";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.location.city ?? "Edge location"} · Edge app` },
  {
    name: "description",
    content: loaderData
      ? `The edge location in ${loaderData.location.city}, ${loaderData.location.country}, rendered per request.`
      : "An edge location.",
  },
];

export function loader({ params }: Route.LoaderArgs) {
  const location = findEdgeLocation(params.id.toLowerCase());
  if (!location) throw data(null, { status: 404 });
  // One URL per item: /items/AMS is control flow to /items/ams, never an error. Only a real item is
  // redirected to, so no request can make this answer point anywhere else.
  if (location.id !== params.id) throw redirect(`/items/${encodeURIComponent(location.id)}`, 301);
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
