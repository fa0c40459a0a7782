/** Reference data for the static `/glossary` pages: pre-rendered at build time, one page per term. */
export type GlossaryTerm = { slug: string; term: string; definition: string };

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    slug: "edge",
    term: "Edge",
    definition: "Servers close to the people using an application, all over the world.",
  },
  { slug: "worker", term: "Worker", definition: "A small program that answers HTTP requests at the edge." },
  {
    slug: "isolate",
    term: "Isolate",
    definition: "A lightweight sandbox in which a Worker runs, started in milliseconds.",
  },
  {
    slug: "workerd",
    term: "workerd",
    definition: "The open-source runtime that runs Workers, locally and in production.",
  },
  {
    slug: "colo",
    term: "Colo",
    definition: "A data center of the edge network, named by a nearby airport code.",
  },
  {
    slug: "ssr",
    term: "Server rendering",
    definition: "Producing a page's HTML for each request on the server.",
  },
  { slug: "prerendering", term: "Pre-rendering", definition: "Producing a page's HTML once, at build time." },
  {
    slug: "hydration",
    term: "Hydration",
    definition: "The browser taking over server-rendered HTML with the same components.",
  },
  { slug: "loader", term: "Loader", definition: "The server function that provides a route's data." },
  { slug: "action", term: "Action", definition: "The server function that handles a route's mutations." },
  {
    slug: "prefetch",
    term: "Prefetch",
    definition: "Fetching what a likely next page needs before it is asked for.",
  },
  {
    slug: "stale-time",
    term: "Stale time",
    definition: "How long prefetched data may be used instead of asking again.",
  },
  {
    slug: "navigation",
    term: "Client navigation",
    definition: "Changing pages by fetching data only, without a document load.",
  },
  {
    slug: "streaming",
    term: "Streaming",
    definition: "Sending HTML in parts as soon as each part is ready.",
  },
  {
    slug: "digest",
    term: "Digest",
    definition: "A short id of a server error that leads from a screenshot to its log line.",
  },
  {
    slug: "tunnel",
    term: "Tunnel",
    definition: "A same-origin path through which the browser sends error reports.",
  },
  {
    slug: "envelope",
    term: "Envelope",
    definition: "The format in which Sentry SDKs send events, transactions and replays.",
  },
  { slug: "dsn", term: "DSN", definition: "The address that tells a Sentry SDK where its reports belong." },
  {
    slug: "nonce",
    term: "Nonce",
    definition: "A random value per response that allows that response's inline scripts.",
  },
  {
    slug: "csp",
    term: "Content Security Policy",
    definition: "A header that limits where a page may load code and data from.",
  },
  {
    slug: "binding",
    term: "Binding",
    definition: "A resource (variable, database, service) given to a Worker by its configuration.",
  },
  {
    slug: "miniflare",
    term: "Miniflare",
    definition: "The local simulator that runs Workers in workerd for development and tests.",
  },
  {
    slug: "wrangler",
    term: "Wrangler",
    definition: "The command-line tool that develops, tests and deploys Workers.",
  },
  {
    slug: "single-fetch",
    term: "Single fetch",
    definition: "React Router's one request per navigation for all of a page's data.",
  },
];

export function findGlossaryTerm(slug: string): GlossaryTerm | undefined {
  return GLOSSARY.find((entry) => entry.slug === slug);
}
