import { DateTime, useTexts, useVisitor } from "edge-platform/react";
import { fillText } from "edge-platform/shared";
import { NavigationControls } from "../components/navigation-controls";
import { nowTexts } from "../texts";
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
    colo: typeof request.cf?.colo === "string" ? request.cf.colo : null,
  };
}

/** Long enough to see the seconds change on a refresh; the zone is named beside it. */
const NOW_FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "full", timeStyle: "medium" };

export default function Now({ loaderData }: Route.ComponentProps) {
  const { renderedAt, colo } = loaderData;
  const texts = useTexts(nowTexts);
  const { timeZone } = useVisitor();
  return (
    <>
      <h1>{texts.heading}</h1>
      <p>
        {texts.renderedAt} <DateTime instant={renderedAt} options={NOW_FORMAT} />
        {colo ? ` ${fillText(texts.dataCenter, { colo })}` : ""}.
      </p>
      {timeZone ? <p>{fillText(texts.timeZone, { zone: timeZone })}</p> : null}
      <NavigationControls />
    </>
  );
}
