import { Link } from "react-router";
import { GLOSSARY } from "../data/glossary";
import type { Route } from "./+types/glossary";

export const meta: Route.MetaFunction = () => [
  { title: "Glossary · Edge app" },
  { name: "description", content: "The words this application's platform is described in, one page each." },
];

// Runs once, at build time: this page is pre-rendered (STATIC_PAGES in app/product.config.ts).
export function loader() {
  return { terms: GLOSSARY.map(({ slug, term }) => ({ slug, term })) };
}

export default function Glossary({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Glossary</h1>
      <p>Every term is a static page; all of them are prefetched as this page renders, five at a time.</p>
      <ul className="glossary">
        {loaderData.terms.map(({ slug, term }) => (
          <li key={slug}>
            <Link to={`/glossary/${slug}`} prefetch="render">
              {term}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
