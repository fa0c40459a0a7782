import { Link } from "react-router";
import { EDGE_LOCATIONS } from "../data/edge-locations";
import type { Route } from "./+types/items";

export const meta: Route.MetaFunction = () => [
  { title: "Edge locations · Edge app" },
  { name: "description", content: "Cities around the world that this application is served from." },
];

export function loader() {
  return { locations: EDGE_LOCATIONS, renderedAt: new Date().toISOString() };
}

export default function Items({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Edge locations</h1>
      <ul className="items">
        {loaderData.locations.map((location) => (
          <li key={location.id}>
            <Link to={`/items/${location.id}`}>{location.city}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
