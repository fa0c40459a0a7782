import { index, prefix, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("now", "routes/now.tsx"),
  route("items", "routes/items.tsx"),
  route("items/:id", "routes/item.tsx"),
  route("glossary", "routes/glossary.tsx"),
  route("glossary/:slug", "routes/glossary-term.tsx"),
  route("messages", "routes/messages.tsx"),
  route("messages/latest", "routes/messages-latest.tsx"),
  // Reference failures for the application-error page; 404 unless ENABLE_FAILURE_ROUTES is "true".
  ...prefix("failures", [
    route("loader", "routes/failure-loader.tsx"),
    route("render", "routes/failure-render.tsx"),
    route("client", "routes/failure-client.tsx"),
  ]),
] satisfies RouteConfig;
