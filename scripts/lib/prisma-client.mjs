// A Prisma client for scripts (setup, jobs): the generated client of DATABASE_URL's engine with its
// driver adapter, as app/core/db.server.ts builds it for the app.
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { providerOf, sqlitePath } from "../../prisma/migrate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);

export async function clientFor(databaseUrl) {
  if (providerOf(databaseUrl) === "sqlite") {
    const { PrismaBetterSQLite3 } = require("@prisma/adapter-better-sqlite3");
    const { PrismaClient } = require(path.join(root, "prisma", "generated", "sqlite", "index.js"));
    return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${sqlitePath(databaseUrl)}` }, { timestampFormat: "unixepoch-ms" }) });
  }
  const { PrismaPg } = require("@prisma/adapter-pg");
  const { PrismaClient } = require(path.join(root, "prisma", "generated", "postgresql", "index.js"));
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}
