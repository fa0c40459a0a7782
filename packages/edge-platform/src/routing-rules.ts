/**
 * A test of whether a path is one the rules send to the Worker, as Cloudflare decides it: negative rules
 * first, `*` matching any characters. Built once (the Worker builds it per isolate).
 */
export function routingRulesMatcher(rules: readonly string[]): (pathname: string) => boolean {
  const toRegExp = (glob: string) => new RegExp(`^${glob.split("*").map(escapeRegExp).join(".*")}$`);
  const excluded = rules.filter((rule) => rule.startsWith("!")).map((rule) => toRegExp(rule.slice(1)));
  const included = rules.filter((rule) => !rule.startsWith("!")).map(toRegExp);
  return (pathname) =>
    !excluded.some((glob) => glob.test(pathname)) && included.some((glob) => glob.test(pathname));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
