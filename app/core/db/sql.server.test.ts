import { databaseProvider } from "~/core/db.server";
import { joinSql, sql, sqlList } from "./sql.server";

// The placeholder this suite's engine writes for the n-th value.
const p = (n: number) => (databaseProvider === "sqlite" ? "?" : `$${n}`);

describe("the sql tag", () => {
  it("splices fragments, lists and values into one statement, its values in the order of their placeholders", () => {
    const day = new Date("2026-03-01T00:00:00Z");
    const inner = sql`"day" >= ${day} AND "metric" IN (${sqlList(["a", "b"])})`;
    const column = sql`(SELECT COUNT(*) FROM "DailyStat" WHERE "shopId" = ${"s1"} AND ${inner})`;
    const ctes = joinSql([sql`"x" AS (SELECT ${1} AS "n")`, sql`"y" AS (SELECT ${2} AS "n")`], ", ");
    const statement = sql`WITH ${ctes} SELECT ${column} AS "count", ${null} AS "none", ${sql``}${true} AS "yes"`;

    expect(statement.values).toEqual([1, 2, "s1", day, "a", "b", null, true]);
    expect(statement.text).toBe(
      `WITH "x" AS (SELECT ${p(1)} AS "n"), "y" AS (SELECT ${p(2)} AS "n") SELECT (SELECT COUNT(*) FROM "DailyStat" WHERE "shopId" = ${p(3)} AND "day" >= ${p(4)} AND "metric" IN (${p(5)}, ${p(6)})) AS "count", ${p(7)} AS "none", ${p(8)} AS "yes"`,
    );
    expect(statement.parts).toHaveLength(statement.values.length + 1);
  });

  it("gives a fragment the same text and values alone as inside another, however often either is read", () => {
    const fragment = sql`"phone" = ${"+12125550123"} AND "n" < ${5}`;
    const outer = sql`SELECT 1 WHERE ${fragment} AND ${fragment}`;
    expect(fragment.text).toBe(`"phone" = ${p(1)} AND "n" < ${p(2)}`);
    const outerText = `SELECT 1 WHERE "phone" = ${p(1)} AND "n" < ${p(2)} AND "phone" = ${p(3)} AND "n" < ${p(4)}`;
    expect(outer.values).toEqual(["+12125550123", 5, "+12125550123", 5]);
    expect(outer.text).toBe(outerText);
    expect(fragment.text).toBe(`"phone" = ${p(1)} AND "n" < ${p(2)}`);
    expect(outer.text).toBe(outerText);
    expect(fragment.values).toEqual(["+12125550123", 5]);
  });

  it("takes a fragment that is a plain { text, values, parts } object too", () => {
    const plain = { text: "ignored", values: ["v"], parts: ['"a" = ', ""] };
    expect(sql`SELECT 1 WHERE ${plain}`.text).toBe(`SELECT 1 WHERE "a" = ${p(1)}`);
  });

  it("renders each shape's text right however often a call site runs with other fragments, list lengths or strings", () => {
    const byPhone = () => sql`"phone" = ${"+12125550123"}`;
    const byIds = (ids: string[]) => sql`"id" IN (${sqlList(ids)})`;
    const statement = (condition: ReturnType<typeof sql>, limit: number) => sql`SELECT "id" FROM "OtpChallenge" WHERE ${condition} LIMIT ${limit}`;
    for (let round = 0; round < 2; round++) {
      expect(statement(byPhone(), 1).text).toBe(`SELECT "id" FROM "OtpChallenge" WHERE "phone" = ${p(1)} LIMIT ${p(2)}`);
      expect(statement(byIds(["a", "b"]), 1).text).toBe(`SELECT "id" FROM "OtpChallenge" WHERE "id" IN (${p(1)}, ${p(2)}) LIMIT ${p(3)}`);
      expect(statement(byIds(["a", "b", "c"]), 1).text).toBe(`SELECT "id" FROM "OtpChallenge" WHERE "id" IN (${p(1)}, ${p(2)}, ${p(3)}) LIMIT ${p(4)}`);
      expect(statement(sql`${byIds(["a"])} AND ${byPhone()}`, 2).text).toBe(`SELECT "id" FROM "OtpChallenge" WHERE "id" IN (${p(1)}) AND "phone" = ${p(2)} LIMIT ${p(3)}`);
      expect(statement(sql`${byIds(["a", "b"])} AND ${byPhone()}`, 2).values).toEqual(["a", "b", "+12125550123", 2]);
    }
    // Strings made at run time are told apart by what they hold, including where one string ends.
    for (const column of ["a", "b", "a"]) expect(sql([`SELECT "${column}" FROM "T" WHERE "x" = `, ""], 1).text).toBe(`SELECT "${column}" FROM "T" WHERE "x" = ${p(1)}`);
    expect(sql(["a", "b"], 1).text).toBe(`a${p(1)}b`);
    expect(sql(["a\u0000b"]).text).toBe("a\u0000b");
    const plain = (text: string) => ({ text: "ignored", values: ["v"], parts: [text, ""] });
    expect(sql`SELECT 1 WHERE ${plain('"a" = ')}`.text).toBe(`SELECT 1 WHERE "a" = ${p(1)}`);
    expect(sql`SELECT 1 WHERE ${plain('"b" = ')}`.text).toBe(`SELECT 1 WHERE "b" = ${p(1)}`);
  });

  it("keeps rendering right past the bound on kept shapes (contents and texts are forgotten, never mixed up)", () => {
    for (let i = 0; i < 12_000; i++) {
      const statement = sql`SELECT ${sql([`"c${i % 6_000}"`])} FROM "T" WHERE "id" IN (${sqlList(Array.from({ length: 1 + (i % 7) }, () => i))})`;
      expect(statement.text).toBe(`SELECT "c${i % 6_000}" FROM "T" WHERE "id" IN (${Array.from({ length: 1 + (i % 7) }, (_, j) => p(j + 1)).join(", ")})`);
    }
  });
});
