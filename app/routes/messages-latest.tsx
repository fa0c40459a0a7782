import { useTexts } from "edge-platform/react";
import { getRequestContext } from "edge-platform/server";
import { defineTexts } from "edge-platform/shared";
import { DateTime, RelativeTime } from "edge-platform/time";
import { Link } from "react-router";
import { MESSAGES_CACHE_TAG } from "../data/messages";
import { latestMessages } from "../data/messages.server";
import type { Route } from "./+types/messages-latest";

export const meta: Route.MetaFunction = () => [
  { title: "Latest messages · Edge app" },
  { name: "description", content: "The latest messages, served from the edge." },
];

/**
 * Shared by every visitor from the edge (Workers Cache) for 60 s, then served stale for up to 10 minutes while
 * refreshed; posting a message purges the tag (packages/edge-platform/docs/caching.md). An error answer is not shared: it gets the
 * platform's per-request default.
 */
export const headers: Route.HeadersFunction = ({ errorHeaders }) =>
  errorHeaders
    ? errorHeaders
    : {
        "Cache-Control": "public, s-maxage=60, stale-while-revalidate=600",
        "Cache-Tag": MESSAGES_CACHE_TAG,
      };

/** This page's texts in the product's languages (the rest of the product's: app/texts.ts). */
const latestMessagesTexts = defineTexts(
  { heading: "Latest messages", asOf: "As of", post: "Post a message", empty: "No messages yet." },
  {
    ja: {
      heading: "最新のメッセージ",
      asOf: "更新:",
      post: "メッセージを投稿する",
      empty: "まだメッセージはありません。",
    },
    ar: { heading: "أحدث الرسائل", asOf: "حتى", post: "انشر رسالة", empty: "لا توجد رسائل بعد." },
    hi: { heading: "नवीनतम संदेश", asOf: "अद्यतन:", post: "संदेश पोस्ट करें", empty: "अभी कोई संदेश नहीं।" },
  },
);

export async function loader({ context }: Route.LoaderArgs) {
  // Shared by everyone, so nothing of the visitor's is read (not even their database bookmark).
  const { env } = getRequestContext(context);
  return { messages: await latestMessages(env.DB), renderedAt: new Date().toISOString() };
}

/**
 * One copy for every visitor: times are relative (the same in every zone) or, for the copy's own instant,
 * shown in UTC until the browser shows its own zone (edge-platform's DateTime).
 */
export default function LatestMessages({ loaderData }: Route.ComponentProps) {
  const texts = useTexts(latestMessagesTexts);
  return (
    <>
      <h1>{texts.heading}</h1>
      <p>
        {texts.asOf} <DateTime instant={loaderData.renderedAt} />. <Link to="/messages">{texts.post}</Link>
      </p>
      {loaderData.messages.length === 0 ? <p>{texts.empty}</p> : null}
      <ol className="messages" aria-label={texts.heading}>
        {loaderData.messages.map((message) => (
          <li key={message.id}>
            {/* Visitors' text, isolated: its direction is its own and cannot reorder the date beside it. */}
            <strong>
              <bdi>{message.name}</bdi>
            </strong>{" "}
            <RelativeTime instant={message.createdAt} />
            <p dir="auto">{message.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
