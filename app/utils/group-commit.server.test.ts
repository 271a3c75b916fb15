import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { flushGroup, groupWrite, type GroupedConnection } from "./group-commit.server";

type Db = GroupedConnection & {
  prepare: (sql: string) => { run: (...args: unknown[]) => { changes: number }; all: (...args: unknown[]) => unknown[] };
  pragma: (sql: string) => unknown;
  close: () => void;
};
const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => Db;

let dir: string;
let db: Db;
let observer: Db;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "group-commit-"));
  db = new Database(path.join(dir, "g.db"));
  db.pragma("journal_mode = WAL");
  db.exec(`CREATE TABLE "T" ("id" TEXT PRIMARY KEY, "n" INTEGER)`);
  observer = new Database(path.join(dir, "g.db"));
});

afterEach(() => {
  flushGroup();
  db.close();
  observer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const insert = (id: string) => () => db.prepare(`INSERT INTO "T" ("id", "n") VALUES (?, 1)`).run(id).changes;
const committed = () => (observer.prepare(`SELECT "id" FROM "T" ORDER BY "id"`).all() as { id: string }[]).map((r) => r.id);

function recordingExec(connection: Db) {
  const seen: string[] = [];
  const exec = connection.exec.bind(connection);
  connection.exec = (sql: string) => {
    seen.push(sql);
    return exec(sql);
  };
  return seen;
}

describe("group commit of SQLite's direct writes", () => {
  it("commits the writes of one round once, and resolves each only after that commit", async () => {
    const execs = recordingExec(db);
    const writes = [groupWrite(db, insert("a")), groupWrite(db, insert("b")), groupWrite(db, insert("c"))];
    // Written, not committed yet: another connection sees nothing, and no promise has settled.
    expect(committed()).toEqual([]);
    let settled = false;
    void Promise.all(writes).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);

    expect(await Promise.all(writes)).toEqual([1, 1, 1]);
    expect(committed()).toEqual(["a", "b", "c"]);
    expect(execs).toEqual(["BEGIN", "COMMIT"]);
  });

  it("a later round is a group of its own", async () => {
    const execs = recordingExec(db);
    await groupWrite(db, insert("a"));
    await groupWrite(db, insert("b"));
    expect(committed()).toEqual(["a", "b"]);
    expect(execs).toEqual(["BEGIN", "COMMIT", "BEGIN", "COMMIT"]);
  });

  it("undoes a failing statement alone: only its caller gets the error, the others commit", async () => {
    const results = await Promise.allSettled([
      groupWrite(db, insert("a")),
      groupWrite(db, insert("a")), // the same primary key: a constraint error
      groupWrite(db, insert("b")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committed()).toEqual(["a", "b"]);
  });

  it("fails every write of the group when its commit fails, and keeps none of them", async () => {
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => {
      if (sql === "COMMIT") throw new Error("disk I/O error");
      return exec(sql);
    };
    const results = await Promise.allSettled([groupWrite(db, insert("a")), groupWrite(db, insert("b"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(db.inTransaction).toBe(false);
    expect(committed()).toEqual([]);
    db.exec = exec;
    // The connection goes on: the next round commits.
    await groupWrite(db, insert("c"));
    expect(committed()).toEqual(["c"]);
  });

  it("commits at once when asked (what the connection's other users do before their own statements)", async () => {
    const write = groupWrite(db, insert("a"));
    expect(committed()).toEqual([]);
    flushGroup();
    expect(committed()).toEqual(["a"]);
    expect(await write).toBe(1);
  });

  it("runs a write inside a transaction that someone else opened, as part of it", async () => {
    const execs = recordingExec(db);
    db.exec("BEGIN");
    expect(await groupWrite(db, insert("a"))).toBe(1);
    db.exec("ROLLBACK");
    expect(committed()).toEqual([]);
    expect(execs).toEqual(["BEGIN", "ROLLBACK"]);
  });
});
