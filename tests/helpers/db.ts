import { prisma, databaseProvider } from "~/core/db.server";
import { clearShopCache } from "~/core/settings/shop.server";
import { sessionStorage } from "~/core/shopify/app.server";
import { forgetAllowanceKeysQueued } from "~/enforcement/enforcement-jobs.server";

let tables: string[] | null = null;

async function listTables(): Promise<string[]> {
  if (databaseProvider === "sqlite") {
    const rows = await prisma.$queryRawUnsafe<{ name: string }[]>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`,
    );
    return rows.map((r) => r.name);
  }
  const rows = await prisma.$queryRawUnsafe<{ tablename: string }[]>(
    `SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  );
  return rows.map((r) => r.tablename);
}

/** Empties every table and the in-memory caches, so each test starts from nothing. */
export async function resetDatabase() {
  tables ??= await listTables();
  if (databaseProvider === "sqlite") {
    for (const t of tables) await prisma.$executeRawUnsafe(`DELETE FROM "${t}"`);
  } else if (tables.length) {
    await prisma.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} RESTART IDENTITY CASCADE`);
  }
  clearShopCache();
  forgetAllowanceKeysQueued();
  sessionStorage.clear();
}

export { prisma };
