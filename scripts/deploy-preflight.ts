/**
 * Runs before `npm run deploy` and `npm run db:migrate:remote`: refuses a wrangler.toml whose
 * D1 database still has the placeholder id the repository ships with, before anything is built or sent,
 * and says what to do instead. `node scripts/deploy-preflight.ts [--config <wrangler.toml>]`.
 */
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";

/** The id wrangler.toml ships with: no real database has it. */
const PLACEHOLDER_DATABASE_ID = "00000000-0000-0000-0000-000000000000";

type D1Database = { binding: string; database_name?: string; database_id?: string };

/** One message per database that cannot be deployed against, naming the command that fixes it. */
function placeholderDatabaseProblems(databases: readonly D1Database[]): string[] {
  return databases
    .filter(({ database_id }) => !database_id || database_id === PLACEHOLDER_DATABASE_ID)
    .map(({ binding, database_name = binding, database_id }) =>
      [
        `The D1 database "${database_name}" (binding ${binding}) has ${database_id ? `the placeholder database_id ${database_id}` : "no database_id"} in wrangler.toml.`,
        `  1. Create it once:  npx wrangler d1 create ${database_name}`,
        "  2. Put the database_id it prints into wrangler.toml ([[d1_databases]]).",
        "  3. Create its tables:  npm run db:migrate:remote",
        '  Then run this again. The whole first-deploy checklist is in the README ("Deploy").',
      ].join("\n"),
    );
}

const { values } = parseArgs({ options: { config: { type: "string", default: "wrangler.toml" } } });
const problems = placeholderDatabaseProblems(unstable_readConfig({ config: values.config }).d1_databases);
if (problems.length > 0) {
  console.error(`wrangler.toml is not ready for a deployment.\n${problems.join("\n\n")}`);
  process.exit(1);
}
