import { getRequestContext } from "edge-platform/server";
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

export async function loader({ context }: Route.LoaderArgs) {
  // Shared by everyone, so nothing of the visitor's is read (not even their database bookmark).
  const { env } = getRequestContext(context);
  return { messages: await latestMessages(env.DB), renderedAt: new Date().toISOString() };
}

export default function LatestMessages({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Latest messages</h1>
      <p>
        As of <time dateTime={loaderData.renderedAt}>{loaderData.renderedAt}</time>.{" "}
        <Link to="/messages">Post a message</Link>
      </p>
      {loaderData.messages.length === 0 ? <p>No messages yet.</p> : null}
      <ol className="messages" aria-label="Latest messages">
        {loaderData.messages.map((message) => (
          <li key={message.id}>
            <strong>{message.name}</strong> <time dateTime={message.createdAt}>{message.createdAt}</time>
            <p>{message.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
