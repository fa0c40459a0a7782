import { NavigationControls } from "../components/navigation-controls";
import type { Route } from "./+types/now";

export const meta: Route.MetaFunction = () => [
  { title: "Now · Edge app" },
  {
    name: "description",
    content: "The time and data center of this request, rendered per request at the edge.",
  },
];

export function loader({ request }: Route.LoaderArgs) {
  return {
    renderedAt: new Date().toISOString(),
    colo: request.cf?.colo ?? null,
    country: request.cf?.country ?? null,
  };
}

export default function Now({ loaderData }: Route.ComponentProps) {
  const { renderedAt, colo, country } = loaderData;
  return (
    <>
      <h1>Now</h1>
      <p>
        Rendered per request at <time dateTime={renderedAt}>{renderedAt}</time>
        {colo ? ` in the ${colo} data center` : ""}
        {country ? ` for a visitor from ${country}` : ""}.
      </p>
      <NavigationControls />
    </>
  );
}
