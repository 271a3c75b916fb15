import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { POSTGRES_ADMIN_URL, ROOT, withPostgresAdmin } from "../setup/databases";

function urlFor(db: string, user?: string) {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${db}`;
  if (user) url.username = user;
  return url.toString();
}

function setup(databaseUrl: string) {
  return spawnSync(process.execPath, [path.join(ROOT, "scripts", "setup.mjs")], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "development", LOCAL_MODE: "false" },
    encoding: "utf8",
  });
}

describe("npm run setup against a PostgreSQL database that does not exist", () => {
  const db = `cod_t${inject("runId")}_setup`;
  const role = `cod_t${inject("runId")}_nocreate`;

  afterAll(async () => {
    await withPostgresAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS "${role}"`);
    });
  });

  it("creates it when the role may, then migrates it", async () => {
    const run = setup(urlFor(db));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`created the PostgreSQL database "${db}"`));
    const migrated = await withPostgresAdmin(async () => {
      const c = new pg.Client({ connectionString: urlFor(db) });
      await c.connect();
      try {
        return (await c.query(`SELECT COUNT(*)::int AS n FROM "_prisma_migrations"`)).rows[0].n;
      } finally {
        await c.end();
      }
    });
    expect(migrated).toBeGreaterThan(0);
  });

  it("otherwise says what is wrong and how to fix it, in one message and no stack trace", async () => {
    await withPostgresAdmin((c) => c.query(`CREATE ROLE "${role}" LOGIN NOCREATEDB`));
    const run = setup(urlFor(`${db}_missing`, role));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/does not exist .*could not be created.*createdb/s);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("says so when PostgreSQL cannot be reached", () => {
    const run = setup("postgresql://postgres@127.0.0.1:9/nothing");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/cannot reach PostgreSQL at 127\.0\.0\.1:9/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
