import { afterAll, afterEach, beforeEach, inject } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { fakeShopifyAnswerProblems, fakeShopifyOperationsRun, fakeShopifyRefusals } from "../mocks/shopify/server";
import { operationsRunDir, workerDatabaseUrl } from "./databases";

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

/**
 * A request the fake Shopify refused as Shopify would (an invalid document or variables, a missing
 * scope) fails the test it happened in, whichever test or fake sent it: the
 * app must never send what Shopify refuses. A test that does so on purpose takes it (`fake.takeRefusals()`).
 */
function failOnRefusals() {
  const refused = fakeShopifyRefusals().splice(0);
  if (refused.length) {
    const lines = refused.map((r) => `${r.api} ${r.operationName ?? "(anonymous)"}: ${r.reason}`);
    throw new Error(`the fake Shopify refused ${refused.length} request(s) as Shopify would:\n${lines.join("\n")}`);
  }
  // The fake's own answers must be ones Shopify could send (schema types, non-null fields, enum values).
  const answers = fakeShopifyAnswerProblems().splice(0);
  if (answers.length) throw new Error(`the fake Shopify answered what Shopify could not send:\n${answers.join("\n")}`);
}

afterEach(failOnRefusals);
afterAll(failOnRefusals);

/** The operations this file sent to a fake Shopify, for the run's check that every document ran (tests/setup/global.ts). */
afterAll(() => {
  const ran = fakeShopifyOperationsRun();
  if (!ran.size) return;
  const dir = operationsRunDir(inject("runId"));
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${process.pid}.txt`), [...ran].join("\n") + "\n");
});
