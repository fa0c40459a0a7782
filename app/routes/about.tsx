import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = () => [{ title: "About · Edge app" }];

// Runs once, at build time: this page is pre-rendered (app/platform/static-pages.ts).
export function loader() {
  return { renderedAt: new Date().toISOString() };
}

export default function About({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>About</h1>
      <p>
        The platform these pages run on: client-side navigation, an application-error page with a digest, and
        rendering in a Cloudflare Worker. This page is static, rendered at{" "}
        <time dateTime={loaderData.renderedAt}>{loaderData.renderedAt}</time>.
      </p>
    </>
  );
}
