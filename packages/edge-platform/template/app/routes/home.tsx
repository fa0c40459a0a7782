import type { MetaFunction } from "react-router";

export const meta: MetaFunction = () => [
  { title: "My product" },
  { name: "description", content: "A product on the edge platform." },
];

export default function Home() {
  return (
    // The platform's document puts a page in its <main> (after the skip link and the product's header).
    <>
      <h1>My product</h1>
      <p>Edit app/routes/home.tsx, or add a page in app/routes.ts.</p>
    </>
  );
}
