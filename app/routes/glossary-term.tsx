import { data, Link } from "react-router";
import { findGlossaryTerm } from "../data/glossary";
import type { Route } from "./+types/glossary-term";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.entry.term ?? "Glossary"} · Edge app` },
  { name: "description", content: loaderData?.entry.definition ?? "A glossary term." },
];

// Pre-rendered for every known term at build time; an unknown term reaches the Worker and is a 404.
export function loader({ params }: Route.LoaderArgs) {
  const entry = findGlossaryTerm(params.slug);
  if (!entry) throw data(null, { status: 404 });
  return { entry, renderedAt: new Date().toISOString() };
}

export default function GlossaryTerm({ loaderData }: Route.ComponentProps) {
  const { entry, renderedAt } = loaderData;
  return (
    <>
      <h1>{entry.term}</h1>
      <p>{entry.definition}</p>
      <p>
        Rendered at build time: <time dateTime={renderedAt}>{renderedAt}</time>.{" "}
        <Link to="/glossary">All terms</Link>
      </p>
    </>
  );
}
