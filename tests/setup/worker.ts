import { afterEach, beforeEach, inject } from "vitest";
import { workerDatabaseUrl } from "./databases";

// Point the app at this worker's database before any app module is imported.
const kind = process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";
process.env.DATABASE_URL = workerDatabaseUrl(kind, inject("runId"), process.env.VITEST_POOL_ID ?? "1");

const { resetDatabase } = await import("../helpers/db");

/** console.error during a test is a failure unless the test said it expects one. */
let consoleErrors: unknown[][] = [];
const originalError = console.error;
console.error = (...args: unknown[]) => {
  consoleErrors.push(args);
  originalError(...args);
};

export function expectConsoleErrors() {
  consoleErrors = [];
  const saved = console.error;
  console.error = () => {};
  return () => {
    console.error = saved;
  };
}

beforeEach(async () => {
  consoleErrors = [];
  await resetDatabase();
});

afterEach(() => {
  if (consoleErrors.length) {
    const first = consoleErrors[0].map(String).join(" ");
    consoleErrors = [];
    throw new Error(`console.error was called during the test: ${first}`);
  }
});
