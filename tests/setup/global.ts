import type { TestProject } from "vitest/node";
import {
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
  };
}
