import { prisma } from "~/core/db.server";
import { execute, query, sql } from "~/core/db/sql.server";

const insert = (key: string) => execute(sql`INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt") VALUES (${key}, 0, 1, 0)`);
const keys = async () => (await prisma.rateCounter.findMany({ orderBy: { key: "asc" } })).map((r) => r.key);

// The direct statements (app/core/db/sql.server.ts) each commit on their own, on a connection Prisma does
// not use: what each caller is told is what the database keeps, whatever Prisma has open beside them.
describe("direct writes, Prisma's writes and transactions at the same time", () => {
  it("keeps every write its caller was told succeeded, and none that failed", async () => {
    const results = await Promise.allSettled([
      insert("a"),
      insert("a"), // the same key: refused
      prisma.rateCounter.create({ data: { key: "p", windowStart: 0n, count: 1, expiresAt: 0n } }),
      insert("b"),
      query(sql`INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt") VALUES (${"c"}, 0, 1, 0) RETURNING "key"`),
    ]);
    // Exactly one of the two "a" writes is refused (on PostgreSQL either may reach the database first).
    expect([results[0].status, results[1].status].sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.slice(2).map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect((results[4] as PromiseFulfilledResult<unknown>).value).toEqual([{ key: "c" }]);
    expect(await keys()).toEqual(["a", "b", "c", "p"]);
  });

  it("a Prisma transaction that rolls back undoes its own writes only, not the direct writes around it", async () => {
    const before = insert("before");
    const failed = prisma
      .$transaction(async (tx) => {
        await tx.rateCounter.create({ data: { key: "in-tx", windowStart: 0n, count: 1, expiresAt: 0n } });
        throw new Error("changed my mind");
      })
      .catch((error: Error) => error.message);
    await before;
    expect(await failed).toBe("changed my mind");
    await insert("after");
    expect(await keys()).toEqual(["after", "before"]);
  });

  it("a write made while a Prisma transaction is open is kept when that transaction rolls back", async () => {
    let besideWrite: Promise<number> | undefined;
    const rolledBack = prisma
      .$transaction(async (tx) => {
        await tx.rateCounter.create({ data: { key: "in-tx", windowStart: 0n, count: 1, expiresAt: 0n } });
        // GIVEN a transaction holding its writes, WHEN a direct write is made beside it
        besideWrite = insert("beside");
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error("changed my mind");
      })
      .catch((error: Error) => error.message);
    // THEN the transaction rolls back and the direct write, reported as done, is still there
    expect(await rolledBack).toBe("changed my mind");
    expect(await besideWrite).toBe(1);
    expect(await keys()).toEqual(["beside"]);
  });

  it("a read-modify-write statement beside an open transaction counts from committed rows only", async () => {
    await insert("counter");
    const bump = () =>
      query<{ count: unknown }>(sql`UPDATE "RateCounter" SET "count" = "count" + 1 WHERE "key" = ${"counter"} RETURNING "count"`);
    let besideBump: Promise<{ count: unknown }[]> | undefined;
    const rolledBack = prisma
      .$transaction(async (tx) => {
        await tx.rateCounter.update({ where: { key: "counter" }, data: { count: { increment: 10 } } });
        besideBump = bump();
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error("changed my mind");
      })
      .catch((error: Error) => error.message);
    expect(await rolledBack).toBe("changed my mind");
    expect(Number((await besideBump!)[0].count)).toBe(2);
    expect((await prisma.rateCounter.findUniqueOrThrow({ where: { key: "counter" } })).count).toBe(2);
  });
});
