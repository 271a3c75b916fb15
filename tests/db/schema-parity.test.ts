import fs from "node:fs";
import path from "node:path";
import { databaseProvider, prisma } from "~/core/db.server";
import { ROOT } from "../setup/databases";

/**
 * The migrations, applied to a real database of this suite's engine, must produce exactly the models
 * of prisma/schema.prisma: every model a table, every scalar field a column with the same nullability.
 * This runs on SQLite and on PostgreSQL, so the two engines' migrations cannot drift apart.
 */
type Field = { name: string; optional: boolean };
type Model = { name: string; fields: Field[] };

/** Models and their scalar fields, read from the schema itself (the one source of truth). */
function modelsOfSchema(): Model[] {
  const source = fs.readFileSync(path.join(ROOT, "prisma", "schema.prisma"), "utf8");
  const blocks = [...source.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const names = new Set(blocks.map((b) => b[1]));
  return blocks.map(([, name, body]) => ({
    name,
    fields: body
      .split("\n")
      .map((line) => line.replace(/\/\/.*$/, "").trim())
      .filter((line) => line && !line.startsWith("@@"))
      .map((line) => line.split(/\s+/))
      .filter(([, type]) => !names.has(type.replace(/[?[\]]/g, "")))
      .map(([field, type]) => ({ name: field, optional: type.endsWith("?") })),
  }));
}

async function columnsOf(table: string): Promise<Map<string, { nullable: boolean }>> {
  if (databaseProvider === "sqlite") {
    const rows = await prisma.$queryRawUnsafe<{ name: string; notnull: number | bigint; pk: number | bigint }[]>(
      `SELECT name, "notnull", pk FROM pragma_table_info('${table}')`,
    );
    return new Map(rows.map((r) => [r.name, { nullable: Number(r.notnull) === 0 && Number(r.pk) === 0 }]));
  }
  const rows = await prisma.$queryRawUnsafe<{ name: string; nullable: string }[]>(
    `SELECT column_name::text AS name, is_nullable::text AS nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
    table,
  );
  return new Map(rows.map((r) => [r.name, { nullable: r.nullable === "YES" }]));
}

async function tables(): Promise<string[]> {
  const rows =
    databaseProvider === "sqlite"
      ? await prisma.$queryRawUnsafe<{ name: string }[]>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`,
        )
      : await prisma.$queryRawUnsafe<{ name: string }[]>(
          `SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
        );
  return rows.map((r) => r.name).sort();
}

describe(`the ${databaseProvider} migrations match prisma/schema.prisma`, () => {
  const models = modelsOfSchema();

  it("create one table per model and nothing else", async () => {
    expect(await tables()).toEqual(models.map((m) => m.name).sort());
  });

  it("give every scalar field a column with the schema's nullability", async () => {
    for (const model of models) {
      const columns = await columnsOf(model.name);
      const scalars = model.fields;
      expect([...columns.keys()].sort(), model.name).toEqual(scalars.map((f) => f.name).sort());
      for (const f of scalars) {
        expect({ field: `${model.name}.${f.name}`, nullable: columns.get(f.name)!.nullable }).toEqual({
          field: `${model.name}.${f.name}`,
          nullable: f.optional,
        });
      }
    }
  });
});
