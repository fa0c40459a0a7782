import type { Route } from "./+types/about";
import "./about.css";

export const meta: Route.MetaFunction = () => [
  { title: "About · Edge app" },
  {
    name: "description",
    content:
      "The platform these pages run on: client-side navigation, error pages with a digest, edge rendering.",
  },
];

// Runs once, at build time: this page is pre-rendered (STATIC_PAGES in app/product.config.ts).
export function loader() {
  return { renderedAt: new Date().toISOString() };
}

export default function About({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>About</h1>
      <p className="about-platform">
        The platform these pages run on: client-side navigation, an application-error page with a digest, and
        rendering in a Cloudflare Worker. This page is static, rendered at{" "}
        <time dateTime={loaderData.renderedAt}>{loaderData.renderedAt}</time>.
      </p>
    </>
  );
}
