import fs from "node:fs";
import path from "node:path";
import { databaseProvider, prisma } from "~/core/db.server";
import { installShop } from "../helpers/shops";
import { ROOT } from "../setup/databases";

/**
 * The hand-written migration that makes one open correction per order: on a database that already
 * holds duplicates (made by the race it closes), it keeps the newest open and closes the others as
 * expired before it creates the index, on each engine's own copy of the SQL.
 */
const NAME = "20261125092421_address_correction_open_once";
const file = path.join(ROOT, "prisma", ...(databaseProvider === "postgresql" ? ["postgresql"] : []), "migrations", NAME, "migration.sql");
const INDEX = "AddressCorrection_open_per_order_key";

function statementsOf(sqlText: string): string[] {
  return sqlText
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
}

describe(`the ${databaseProvider} migration ${NAME}`, () => {
  it("keeps the newest open correction of each order, closes older duplicates as expired, then refuses a second open one", async () => {
    const shop = await installShop();
    const row = (id: string, orderGid: string, status: string, minutesAgo: number) => ({
      id,
      shopId: shop.id,
      orderGid,
      phone: "+919876543210",
      tokenHash: `hash-${id}`,
      status,
      source: "api",
      before: "{}",
      expiresAt: new Date(Date.now() + 3600_000),
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    await prisma.$executeRawUnsafe(`DROP INDEX "${INDEX}"`);
    try {
      await prisma.addressCorrection.createMany({
        data: [
          row("a-old", "gid://shopify/Order/1", "pending", 3),
          row("a-mid", "gid://shopify/Order/1", "submitting", 2),
          row("a-new", "gid://shopify/Order/1", "pending", 1),
          row("a-done", "gid://shopify/Order/1", "completed", 0),
          row("b-only", "gid://shopify/Order/2", "pending", 5),
        ],
      });
      for (const statement of statementsOf(fs.readFileSync(file, "utf8"))) await prisma.$executeRawUnsafe(statement);
    } finally {
      await prisma.$executeRawUnsafe(`CREATE UNIQUE INDEX IF NOT EXISTS "${INDEX}" ON "AddressCorrection"("shopId", "orderGid") WHERE "status" IN ('pending', 'submitting')`);
    }
    const rows = await prisma.addressCorrection.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true } });
    expect(rows).toEqual([
      { id: "a-done", status: "completed" },
      { id: "a-mid", status: "expired" },
      { id: "a-new", status: "pending" },
      { id: "a-old", status: "expired" },
      { id: "b-only", status: "pending" },
    ]);
    await expect(prisma.addressCorrection.create({ data: row("a-again", "gid://shopify/Order/1", "pending", 0) })).rejects.toMatchObject({ code: "P2002" });
  });
});
