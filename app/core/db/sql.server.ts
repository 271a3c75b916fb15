import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { driver, databaseProvider, type SqliteDatabase } from "~/core/db.server";
import { env } from "~/core/env.server";

/**
 * Direct statements for the storefront's hot paths (send-otp, verify-otp, the rate limits), through the
 * drivers' public APIs on connections the app opens itself (app/core/db.server.ts): a better-sqlite3
 * connection of its own, or the pg pool the app hands to Prisma's adapter. Each statement is prepared
 * once (SQLite: kept per connection; PostgreSQL: a named prepared statement, parsed once per pooled
 * connection) and costs no query compilation, which is where most of a Prisma call's time goes. Each
 * statement commits on its own, outside any transaction Prisma has open. The SQL must be valid on both engines, as the hot paths'
 * `$queryRaw` statements were. Why and where: docs/decisions/direct-sql-hot-paths.md.
 *
 *   const rows = await query<{ id: string }>(sql`SELECT "id" FROM "Shop" WHERE "domain" = ${domain}`);
 *
 * Values: strings, numbers, bigints, booleans, null and Dates (stored as Prisma stores them: epoch
 * milliseconds on SQLite, timestamps on PostgreSQL). Integers read from SQLite come back as bigint and
 * PostgreSQL BIGINT columns as strings: read numbers through Number().
 */
const { types } = createRequire(import.meta.url)("pg") as typeof import("pg");
const pgTypeParser = types.getTypeParser as (oid: number, format?: string) => unknown;

export type SqlValue = string | number | bigint | boolean | null | Date;
/**
 * A statement, or a fragment of one: `parts` are the SQL between the values (one more part than
 * values), `text` the SQL with this engine's placeholders (`?` on SQLite, `$1, $2...` on PostgreSQL).
 */
export type Sql = { readonly text: string; readonly values: readonly SqlValue[]; readonly parts: readonly string[] };
/** A list of values spliced in as `?, ?, ?` (for `IN (...)`); each length is its own prepared statement. */
export type SqlList = { readonly list: readonly SqlValue[] };

export function sqlList(values: readonly SqlValue[]): SqlList {
  if (!values.length) throw new Error("an empty SQL list");
  return { list: values };
}

function render(parts: readonly string[]): string {
  let text = parts[0];
  for (let i = 1; i < parts.length; i++) text += (databaseProvider === "sqlite" ? "?" : `$${i}`) + parts[i];
  return text;
}

/*
 * Each statement's text is rendered once per shape, not once per call. A statement's shape is what its
 * text depends on: the strings of its template and, for each value spliced in, another fragment's shape or
 * a list's length (a plain value is one placeholder whatever it holds). A shape is named by a short key,
 * and the text rendered for it is kept under that key. The drivers' caches (SQLite's prepared statements,
 * PostgreSQL's statement names) are looked up by the text: the same string every time, whose hash the
 * engine computed once, instead of a new string of hundreds of characters to join and hash on each call.
 */
const templateKeys = new WeakMap<readonly string[], string>();
const contentKeys = new Map<string, string>();
const renderedTexts = new Map<string, string>();
/** A bound on the kept texts and contents: shapes come from the code, but a list's length is the caller's. */
const RENDERED_TEXTS_KEPT = 5_000;
let nextKey = 0;

/**
 * The key of a template's strings: one per call site (a tagged template passes the same frozen array every
 * time), else one per content. A frozen array (a template's, joinSql's) is remembered by itself; an array
 * made for one call is not, as it is never met again.
 */
function stringsKey(strings: TemplateStringsArray | readonly string[]): string {
  let key = templateKeys.get(strings);
  if (key !== undefined) return key;
  const frozen = Object.isFrozen(strings);
  if (frozen && "raw" in strings) key = `t${nextKey++}`;
  else {
    const content = `${strings.length}\u0000${strings.join("\u0000")}`;
    key = contentKeys.get(content);
    if (key === undefined) {
      // A key is never given twice (nextKey only grows), so forgetting the contents met only costs a render.
      if (contentKeys.size >= RENDERED_TEXTS_KEPT) contentKeys.clear();
      contentKeys.set(content, (key = `s${nextKey++}`));
    }
  }
  if (frozen) templateKeys.set(strings, key);
  return key;
}

function renderedText(shape: string, fragment: Sql): string {
  let text = renderedTexts.get(shape);
  if (text === undefined) {
    if (renderedTexts.size >= RENDERED_TEXTS_KEPT) renderedTexts.clear();
    renderedTexts.set(shape, (text = render(fragment.parts)));
  }
  return text;
}

type Spliced = SqlValue | SqlList | Sql;

/**
 * A statement or fragment. Its values are flattened when it is made (the driver needs them every time);
 * its parts and text only when first read: a fragment spliced into a larger statement (most of them: a
 * CTE, a column, a condition) never is, and a shape met before is not rendered again.
 */
class SqlText implements Sql {
  #parts: readonly string[] | undefined;
  #text: string | undefined;
  constructor(
    readonly strings: readonly string[],
    readonly spliced: readonly Spliced[],
    readonly values: readonly SqlValue[],
    /** The statement's shape (see renderedText). */
    readonly shape: string,
  ) {}
  get text(): string {
    return (this.#text ??= renderedText(this.shape, this));
  }
  /** The SQL between the values: the template's strings, each fragment's own parts and each list's separators merged in. */
  get parts(): readonly string[] {
    if (this.#parts) return this.#parts;
    const { strings, spliced } = this;
    const parts = [strings[0]];
    for (let i = 1; i < strings.length; i++) {
      const value = spliced[i - 1];
      if (isList(value)) {
        for (let j = 1; j < value.list.length; j++) parts.push(", ");
        parts.push(strings[i]);
      } else if (isFragment(value)) {
        const inner = value.parts;
        parts[parts.length - 1] += inner[0];
        for (let j = 1; j < inner.length; j++) parts.push(inner[j]);
        parts[parts.length - 1] += strings[i];
      } else parts.push(strings[i]);
    }
    return (this.#parts = parts);
  }
}

function isList(value: Spliced): value is SqlList {
  return value !== null && typeof value === "object" && "list" in value;
}

function isFragment(value: Spliced): value is Sql {
  return value !== null && typeof value === "object" && "parts" in value;
}

/** A fragment's shape: its own, or (a statement made elsewhere) one taken from its strings. */
function shapeOf(fragment: Sql): string {
  return fragment instanceof SqlText ? fragment.shape : stringsKey(fragment.parts);
}

/**
 * The `sql` tag. A value may be a list (`sqlList`) or another `sql` fragment, spliced in with its own
 * values (so one statement can be built from others: a data-modifying CTE on PostgreSQL).
 */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: Spliced[]): Sql {
  const flat: SqlValue[] = [];
  let spliced = "";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (isList(value)) {
      spliced += `${i + 1}L${value.list.length};`;
      for (const v of value.list) flat.push(v);
    } else if (isFragment(value)) {
      spliced += `${i + 1}${shapeOf(value)};`;
      for (const v of value.values) flat.push(v);
    } else flat.push(value);
  }
  const key = stringsKey(strings);
  return new SqlText(strings, values, flat, spliced ? `${key}(${spliced})` : key);
}

/**
 * SQLite only: ` INDEXED BY "<index>"`, to write after a table name where SQLite, which keeps no statistics
 * here, would choose an index that walks rows that only grow; nothing on PostgreSQL, which plans by its own.
 * SQLite refuses the statement if that index cannot serve it, so a renamed or dropped index is an error.
 */
export function sqliteIndexedBy(index: string): Sql {
  return databaseProvider === "sqlite" ? sql([` INDEXED BY "${index}"`]) : sql``;
}

/** joinSql's strings, one frozen array per count and separator, so a join's shape is known by its array. */
const joinStrings = new Map<string, readonly string[]>();

/** Fragments joined by `separator` into one. */
export function joinSql(fragments: readonly Sql[], separator: string): Sql {
  const key = `${fragments.length}\u0000${separator}`;
  let strings = joinStrings.get(key);
  if (!strings) {
    strings = Object.freeze(["", ...fragments.slice(1).map(() => separator), ""]);
    if (joinStrings.size < 1_000) joinStrings.set(key, strings);
  }
  return sql(strings, ...fragments);
}

// Tests count the statements a request makes (watchQueries in app/core/db.server.ts sees Prisma's only).
type Watcher = { statement: (sql: string) => void; roundTrip: () => void };
const directWatchers = new Set<Watcher>();

/**
 * Test aid: records the SQL of every direct statement until `stop()` (NODE_ENV=test only), and counts
 * the round trips: one per `query`/`execute`, one per `transaction` (however many statements it runs).
 */
export function watchDirectStatements() {
  const seen: string[] = [];
  const counted = { statements: seen, roundTrips: 0, stop: () => void directWatchers.delete(watcher) };
  const watcher: Watcher = { statement: (text) => void seen.push(text), roundTrip: () => void counted.roundTrips++ };
  directWatchers.add(watcher);
  return counted;
}

function observe(text: string, roundTrip = true) {
  if (env.NODE_ENV !== "test") return;
  for (const watch of directWatchers) {
    watch.statement(text);
    if (roundTrip) watch.roundTrip();
  }
}

function observeRoundTrip() {
  if (env.NODE_ENV === "test") for (const watch of directWatchers) watch.roundTrip();
}

type SqliteStatement = import("better-sqlite3").Statement<unknown[]>;

const STATEMENT_CACHE_SIZE = 500;
const sqliteStatements = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();

function sqliteValue(value: SqlValue): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

function sqliteStatement(text: string): SqliteStatement {
  if (driver.provider !== "sqlite") throw new Error("not SQLite");
  const db = driver.db();
  let cache = sqliteStatements.get(db);
  if (!cache) sqliteStatements.set(db, (cache = new Map()));
  let stmt = cache.get(text);
  if (!stmt) {
    stmt = db.prepare(text);
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(text, stmt);
  }
  return stmt;
}

// Captured when the module loads: a test that fakes timers later must not stop a retry.
const pause = globalThis.setTimeout;
const BUSY_GIVE_UP_MS = 5_000;

/**
 * Runs one SQLite statement, retried while the write lock is taken: the connection does not wait
 * inside SQLite (that would block the event loop, and with it the transaction holding the lock), so a
 * statement that meets a transaction open on another connection runs once it has ended. Nothing of a
 * statement refused as busy was applied, so running it again is safe. Gives up as SQLite's busy timeout
 * would, after 5 s.
 */
async function onSqlite<T>(text: string, run: (stmt: SqliteStatement) => T): Promise<T> {
  const stmt = sqliteStatement(text);
  const giveUpAt = Date.now() + BUSY_GIVE_UP_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    try {
      return run(stmt);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_BUSY") || Date.now() > giveUpAt) throw error;
    }
    await new Promise((resolve) => pause(resolve, wait));
  }
}

// PostgreSQL: DateTime columns are TIMESTAMP(3) holding UTC, as Prisma writes and reads them.
const TIMESTAMP_OID = 1114;
const pgTypes = {
  getTypeParser: (oid: number, format?: string) =>
    oid === TIMESTAMP_OID ? (value: string) => new Date(`${value.replace(" ", "T")}Z`) : pgTypeParser(oid, format),
};

function pgValue(value: SqlValue): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

async function pgQuery(statement: Sql) {
  if (driver.provider !== "postgresql") throw new Error("not PostgreSQL");
  return driver.pool.query({
    name: pgName(statement.text),
    text: statement.text,
    values: statement.values.map(pgValue),
    types: pgTypes as never,
  });
}

const statementNames = new Map<string, string>();

function pgName(text: string) {
  let name = statementNames.get(text);
  if (!name) {
    name = `cod_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** The statements of a SQLite transaction: synchronous, on the connection the transaction holds. */
export type SqliteTransaction = {
  query<T>(statement: Sql): T[];
  execute(statement: Sql): number;
};

const sqliteTransaction: SqliteTransaction = {
  query<T>(statement: Sql): T[] {
    observe(statement.text, false);
    const stmt = sqliteStatement(statement.text);
    const values = statement.values.map(sqliteValue);
    if (!stmt.reader) {
      stmt.run(values);
      return [];
    }
    return stmt.all(values) as T[];
  },
  execute(statement: Sql): number {
    observe(statement.text, false);
    return sqliteStatement(statement.text).run(statement.values.map(sqliteValue)).changes;
  },
};

/**
 * SQLite only: runs `work` in one transaction (BEGIN IMMEDIATE ... COMMIT, one commit) on the app's own
 * connection. better-sqlite3 is synchronous, so `work` runs whole between two turns of the event loop:
 * its statements and the decisions between them are one atomic step, and no other request's statement
 * runs inside it. Retried whole while another connection holds the write lock (as `query` is); `work`
 * must therefore do nothing but its statements and pure computation. A throw rolls everything back.
 */
export async function transaction<T>(work: (tx: SqliteTransaction) => T): Promise<T> {
  if (driver.provider !== "sqlite") throw new Error("transaction() is SQLite's; PostgreSQL runs one statement");
  observeRoundTrip();
  const db = driver.db();
  const run = db.transaction(() => work(sqliteTransaction));
  const giveUpAt = Date.now() + BUSY_GIVE_UP_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    try {
      return run.immediate();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_BUSY") || Date.now() > giveUpAt) throw error;
    }
    await new Promise((resolve) => pause(resolve, wait));
  }
}

/**
 * Several writes that need nothing from each other, in one round trip: one transaction on SQLite, one
 * statement on PostgreSQL (each write a data-modifying CTE of it). All of them happen, or none. The
 * writes must touch different rows (PostgreSQL runs a statement's CTEs against one snapshot).
 */
export async function executeTogether(statements: readonly Sql[]): Promise<void> {
  if (statements.length === 1) return void (await execute(statements[0]));
  if (driver.provider === "sqlite") {
    await transaction((tx) => {
      for (const statement of statements) tx.execute(statement);
    });
    return;
  }
  const ctes = statements.slice(0, -1).map((s, i) => sql([`w${i} AS (`, ")"], s));
  await execute(sql(["WITH ", " ", ""], joinSql(ctes, ", "), statements[statements.length - 1]));
}

/** A DateTime column's value as read directly (SQLite: epoch milliseconds; PostgreSQL: a Date). */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "bigint" || typeof value === "number") return new Date(Number(value));
  return new Date(String(value));
}

/** A Boolean column's value as read directly (SQLite stores 1 or 0). */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

/** Runs a statement that returns rows (SELECT, or a write with RETURNING). */
export async function query<T>(statement: Sql): Promise<T[]> {
  observe(statement.text);
  if (driver.provider === "sqlite") {
    const values = statement.values.map(sqliteValue);
    return onSqlite(statement.text, (stmt) => {
      if (!stmt.reader) {
        stmt.run(values);
        return [] as T[];
      }
      return stmt.all(values) as T[];
    });
  }
  return (await pgQuery(statement)).rows as T[];
}

/** Runs a statement for its effect; returns the number of rows it changed. */
export async function execute(statement: Sql): Promise<number> {
  observe(statement.text);
  if (driver.provider === "sqlite") {
    const values = statement.values.map(sqliteValue);
    return onSqlite(statement.text, (stmt) => stmt.run(values).changes);
  }
  return (await pgQuery(statement)).rowCount ?? 0;
}

/**
 * A unique-constraint violation, as either engine reports it through Prisma (P2002) or through a
 * direct statement (SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "P2002" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}
