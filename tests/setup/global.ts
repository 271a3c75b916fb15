import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { documentsNeverRun } from "../helpers/operations-run";
import {
  operationsRunDir,
  newRunId,
  createPostgresDatabases,
  createSqliteDatabases,
  removePostgresDatabases,
  removeSqliteDatabases,
} from "./databases";

declare module "vitest" {
  export interface ProvidedContext {
    runId: string;
  }
}

/** Creates this run's databases before any worker starts and removes them after the last one ends. */
export default async function setup(project: TestProject) {
  const runId = newRunId();
  const kind = process.env.TEST_SUITE === "postgres" ? "postgres" : "sqlite";
  if (kind === "postgres") await createPostgresDatabases(runId);
  else await createSqliteDatabases(runId);
  project.provide("runId", runId);
  return async () => {
    if (kind === "postgres") await removePostgresDatabases(runId);
    else removeSqliteDatabases(runId);
    checkEveryDocumentRan(runId);
  };
}

/**
 * Every GraphQL document of the app ran at least once against the fake Shopify during the run: the
 * workers wrote the operation names they sent (tests/setup/worker.ts). A partial run (one file) cannot
 * say, so the check fails the run only with SHOPIFY_OPERATIONS_CHECK=1 (`npm test` sets it on the full
 * sqlite suite); otherwise it only lists what never ran.
 */
function checkEveryDocumentRan(runId: string) {
  const dir = operationsRunDir(runId);
  const ran = new Set<string>();
  if (fs.existsSync(dir)) {
    for (const f of fs.readdirSync(dir)) for (const name of fs.readFileSync(path.join(dir, f), "utf8").split("\n")) if (name) ran.add(name);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.SHOPIFY_OPERATIONS_CHECK !== "1") return;
  const never = documentsNeverRun(ran);
  if (never.length) throw new Error(`${never.length} of the app's GraphQL documents never ran against the fake Shopify in this run: ${never.join(", ")}`);
  console.log(`every one of the app's GraphQL documents ran against the fake Shopify (${ran.size} operations)`);
}
