import { createPostgresDatabases, newRunId, removePostgresDatabases, withPostgresAdmin } from "../setup/databases";

const exists = (name: string) =>
  withPostgresAdmin(async (c) => (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);

describe("test databases on a PostgreSQL shared with other machines", () => {
  it("a run creates and drops only its own databases, never another run's", async () => {
    const runId = newRunId();
    // Another machine's live run: its name carries a number that is no process here (above any pid),
    // drawn per run so that two runs of this test at once do not meet; and a run id that starts like ours.
    const others = [`cod_t9999${1000 + Math.floor(Math.random() * 9000)}_w1`, `cod_t${runId}0_w1`];
    for (const name of others) await withPostgresAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
    try {
      await createPostgresDatabases(runId, 1);
      expect(await exists(`cod_t${runId}_w1`)).toBe(true);
      await removePostgresDatabases(runId);
      expect(await exists(`cod_t${runId}_w1`)).toBe(false);
      expect(await exists(`cod_t${runId}_tpl`)).toBe(false);
      for (const name of others) expect(await exists(name), name).toBe(true);
    } finally {
      for (const name of others) await withPostgresAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
    // A hang guard, not a speed check: a template migrated from scratch (every migration) and a copy of
    // it, on a PostgreSQL that other runs share, can take longer than a route test.
  }, 90_000);

  it("run ids differ between runs", () => {
    const ids = new Set(Array.from({ length: 100 }, newRunId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+$/);
  });
});
