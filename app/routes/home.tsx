import { Link } from "react-router";
import type { Route } from "./+types/home";

// Counted in the first-load budget: the description repeats the page's first sentence, which gzip folds.
export const meta: Route.MetaFunction = () => [
  { title: "Edge app" },
  { name: "description", content: "A React Router application rendered at the edge." },
];

// Runs once, at build time: this page is pre-rendered (STATIC_PAGES in app/product.config.ts).
export function loader() {
  return { renderedAt: new Date().toISOString() };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Edge app</h1>
      <p>
        A React Router application rendered at the edge. This page is static: it was rendered once, at build
        time (<time dateTime={loaderData.renderedAt}>{loaderData.renderedAt}</time>).
      </p>
      <ul>
        <li>
          <Link to="/now">What time is it at the edge?</Link> (rendered per request)
        </li>
        <li>
          <Link to="/items">Edge locations</Link> (rendered per request, with a URL parameter)
        </li>
      </ul>
    </>
  );
}
