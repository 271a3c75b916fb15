import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Prisma CLI configuration for the generated PostgreSQL schema (see scripts/db.mjs).
// Used for `prisma generate` and offline `prisma migrate diff`; migrations are applied by prisma/migrate.mjs.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" });
  },
});
