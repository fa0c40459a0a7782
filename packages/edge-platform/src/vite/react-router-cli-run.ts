#!/usr/bin/env node
/**
 * `node src/vite/react-router-cli-run.ts build` (the package's `build:fixture`, run in fixture/): React Router's
 * CLI as a product's scripts run it (react-router-cli.ts).
 */
import { runReactRouterCli } from "./react-router-cli.ts";

runReactRouterCli();
