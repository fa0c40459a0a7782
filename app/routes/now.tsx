import { useTexts, useVisitor } from "edge-platform/react";
import { defineTexts, fillText } from "edge-platform/shared";
import { DateTime } from "edge-platform/time";
import { NavigationControls } from "../components/navigation-controls";
import type { Route } from "./+types/now";

export const meta: Route.MetaFunction = () => [
  { title: "Now · Edge app" },
  {
    name: "description",
    content: "The time and data center of this request, rendered per request at the edge.",
  },
];

/** This page's texts in the product's languages (the rest of the product's: app/texts.ts). */
const nowTexts = defineTexts(
  {
    heading: "Now",
    renderedAt: "Rendered per request at",
    dataCenter: "in the {colo} data center",
    timeZone: "Your time zone: {zone}.",
  },
  {
    ja: {
      heading: "現在",
      renderedAt: "リクエストごとにレンダリングされた時刻:",
      dataCenter: "（{colo} データセンター）",
      timeZone: "あなたのタイムゾーン: {zone}。",
    },
    ar: {
      heading: "الآن",
      renderedAt: "عُرضت هذه الصفحة لهذا الطلب في",
      dataCenter: "في مركز البيانات {colo}",
      timeZone: "منطقتك الزمنية: {zone}.",
    },
    hi: {
      heading: "अभी",
      renderedAt: "हर अनुरोध पर रेंडर किया गया:",
      dataCenter: "{colo} डेटा सेंटर में",
      timeZone: "आपका समय क्षेत्र: {zone}।",
    },
  },
);

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
