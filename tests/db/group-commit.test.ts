import { prisma } from "~/db.server";
import { execute, query, sql } from "~/db/sql.server";

const insert = (key: string) => execute(sql`INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt") VALUES (${key}, 0, 1, 0)`);
const keys = async () => (await prisma.rateCounter.findMany({ orderBy: { key: "asc" } })).map((r) => r.key);

// On SQLite the direct writes of one round share a commit (app/utils/group-commit.server.ts); on
// PostgreSQL each is its own. Either way, what each caller is told is what the database keeps.
describe("direct writes, Prisma's writes and transactions in the same round", () => {
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
});
