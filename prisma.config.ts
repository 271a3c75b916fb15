import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// Prisma's CLI runs with its WebAssembly schema engine (no Rust binary download).
// Only the SQLite schema is migrated through the CLI; see prisma/migrate.mjs for how
// both providers' migrations are applied.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaBetterSQLite3({ url: process.env.PRISMA_CLI_SQLITE_URL ?? "file:./data/prisma-cli.db" });
  },
});
