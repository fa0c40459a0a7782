import type { MetaFunction } from "react-router";

export const meta: MetaFunction = () => [
  { title: "My product" },
  { name: "description", content: "A product on the edge platform." },
];

export default function Home() {
  return (
    <main id="main">
      <h1>My product</h1>
      <p>Edit app/routes/home.tsx, or add a page in app/routes.ts.</p>
    </main>
  );
}
