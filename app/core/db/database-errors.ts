/**
 * Telling a database failure (unreachable, shutting down, not migrated) from any other error, across
 * Prisma's errors, the driver adapters' error kinds and the drivers' own errors. Pure: no I/O.
 */

// Prisma's codes for a database it cannot reach, open or find tables in (schema not migrated),
// and for its connection pool timing out.
const PRISMA_UNAVAILABLE = new Set(["P1000", "P1001", "P1002", "P1003", "P1008", "P1010", "P1011", "P1017", "P2021", "P2022", "P2024", "P2037"]);
// The driver adapters' error kinds (@prisma/driver-adapter-utils) that mean the same.
const ADAPTER_UNAVAILABLE = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
  "AuthenticationFailed",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
  "TableDoesNotExist",
  "ColumnNotFound",
]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
// PostgreSQL SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P operator
// intervention (server shutting down or starting up).
const PG_UNAVAILABLE = /^(08|53|57P)/;
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|NOTADB|CORRUPT)/;
const MESSAGE_UNAVAILABLE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Can't reach database|no such table|database is locked|Connection closed|ECONNREFUSED/i;

type Inspectable = {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
  originalCode?: unknown;
};

/** True when `error` says the database could not be used (unreachable, shutting down, not migrated). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e) || seen.size > 8) continue;
    seen.add(e);
    const x = e as Inspectable;
    if (x.name === "PrismaClientInitializationError") return true;
    // The library's Prisma session storage when its table cannot be reached or does not exist.
    const kind = (e as object).constructor?.name;
    if (kind === "MissingSessionTableError" || kind === "MissingSessionStorageError") return true;
    if (typeof x.code === "string") {
      if (PRISMA_UNAVAILABLE.has(x.code) || SOCKET_CODES.has(x.code) || SQLITE_UNAVAILABLE.test(x.code)) return true;
      if (/^[0-9A-Z]{5}$/.test(x.code) && PG_UNAVAILABLE.test(x.code)) return true;
    }
    if (typeof x.kind === "string" && ADAPTER_UNAVAILABLE.has(x.kind)) return true;
    if (typeof x.originalCode === "string" && PG_UNAVAILABLE.test(x.originalCode)) return true;
    if (typeof x.message === "string" && MESSAGE_UNAVAILABLE.test(x.message)) return true;
    queue.push(x.cause, x.meta?.driverAdapterError);
  }
  return false;
}

