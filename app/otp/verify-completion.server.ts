import { query, sql, transaction, type Sql } from "~/core/db/sql.server";
import { databaseProvider } from "~/core/db.server";
import { selectionStatements, type SelectionInput } from "~/otp/selection.server";
import { clock } from "~/core/utils/clock.server";
import { allowanceMonthStart } from "~/shared/plans";
import { countEventStatement } from "~/core/db/daily-stats.server";
import { phoneHistoryColumns, phoneHistoryOf, type PhoneHistory, RISK_WINDOW_SECONDS, type PhoneHistoryRow } from "~/risk/assess.server";
import { rateLimitPeek } from "~/core/rate-limit/rate-limit.server";
import { shopDay } from "~/shared/shop-day";

/**
 * verify-otp's right code completed in one round trip (app/otp/verify.server.ts checks the code, this completes it).
 */

export type Completion = {
  consumed: boolean;
  /** The shop's verifications this calendar month that count against the allowance (one per number), this one included. */
  verifiedThisMonth: number;
  /** This verification is the number's first this month: the one the allowance counts. */
  counted: boolean;
  selectionId: string | null;
  risk: { history: PhoneHistory; codesForPhone: number; requestsFromIp: number } | null;
};

type CompletionRow = PhoneHistoryRow & { consumed: unknown; monthVerifications: unknown; verifiedThisMonth: unknown; selectionId: string | null; riskCodes: unknown; riskIp: unknown };

type CompletionInput = {
  shopId: string;
  /** The shop's time zone: the verification's day and allowance month are the shop's. */
  timezone: string | null;
  phone: string;
  challengeId: string;
  verifiedAt: Date;
  selection: SelectionInput | null;
  riskKeys: { codes: string; ip: string | null } | null;
};

/**
 * A right code, in one round trip: the code consumed (an UPDATE of `usedAt` only one request can win), and only
 * if it was, the number marked verified, the verification counted, the selection recorded, and the
 * facts the risk score reads once the number is proven.
 * PostgreSQL: one statement (`completeOnPostgres`); SQLite: one transaction (`completeOnSqlite`).
 * The risk history counts the number as verified before (the mark is written first, as it always was).
 */
export async function completeVerification(p: CompletionInput): Promise<Completion> {
  const steps = completionSteps(p);
  return databaseProvider === "postgresql" ? completeOnPostgres(p, steps) : completeOnSqlite(p, steps);
}

type Steps = ReturnType<typeof completionSteps>;

/** The completion's statements, shared by both engines, and how its row reads as a `Completion`. */
function completionSteps(p: CompletionInput) {
  const monthStart = allowanceMonthStart(p.verifiedAt, p.timezone);
  const today = shopDay(p.verifiedAt, p.timezone);
  const shop = { id: p.shopId, timezone: p.timezone };
  const now = p.verifiedAt.getTime();
  const selection = p.selection && selectionStatements(p.selection, clock.now());
  // The code used: only one request can set `usedAt`; the row stays until it expires (app/otp/otp.server.ts).
  const use = sql`UPDATE "OtpChallenge" SET "usedAt" = ${now} WHERE "id" = ${p.challengeId} AND "usedAt" IS NULL`;
  // The mark also counts the number's verifications this month: 1 back means this is its first one, the
  // one the plan's allowance counts (a number verifying again the same month costs the shop nothing).
  const mark = (source?: Sql) => sql`
    INSERT INTO "VerifiedCustomer" ("shopId", "phone", "verifiedAt", "countedMonth", "monthVerifications")
    ${source ? sql`SELECT ${p.shopId}, ${p.phone}, ${p.verifiedAt}, ${monthStart}, 1 ${source}` : sql`VALUES (${p.shopId}, ${p.phone}, ${p.verifiedAt}, ${monthStart}, 1)`}
    ON CONFLICT ("shopId", "phone") DO UPDATE SET "verifiedAt" = excluded."verifiedAt",
      "monthVerifications" = CASE WHEN "VerifiedCustomer"."countedMonth" = excluded."countedMonth" THEN "VerifiedCustomer"."monthVerifications" + 1 ELSE 1 END,
      "countedMonth" = excluded."countedMonth"
    RETURNING "monthVerifications"`;
  const riskColumns = (keys: { codes: string; ip: string | null }) =>
    sql`${phoneHistoryColumns(p.shopId, p.phone)}, ${rateLimitPeek(keys.codes, RISK_WINDOW_SECONDS, now)} AS "riskCodes",
      ${keys.ip ? rateLimitPeek(keys.ip, RISK_WINDOW_SECONDS, now) : sql`0`} AS "riskIp"`;
  const completion = (row: Partial<CompletionRow>, consumed: boolean): Completion => ({
    consumed,
    verifiedThisMonth: Number(row.verifiedThisMonth ?? 0),
    counted: consumed && Number(row.monthVerifications) === 1,
    selectionId: row.selectionId ?? null,
    risk: p.riskKeys
      ? { history: phoneHistoryOf(row as PhoneHistoryRow), codesForPhone: Number(row.riskCodes ?? 0), requestsFromIp: Number(row.riskIp ?? 0) }
      : null,
  });
  return { monthStart, today, shop, selection, use, mark, riskColumns, completion };
}

/** PostgreSQL: one statement, each write a data-modifying CTE that runs only on the consumed row. */
async function completeOnPostgres(p: CompletionInput, st: Steps): Promise<Completion> {
  const { monthStart, today, shop, selection } = st;
  const none = sql`SELECT NULL AS "id" WHERE false`;
  const [row] = await query<CompletionRow>(sql`
    WITH "consumed" AS (${st.use} RETURNING "id"),
    "marked" AS (${st.mark(sql`FROM "consumed"`)}),
    "counted" AS (${countEventStatement(shop, "otp_verified", "", p.verifiedAt, sql`FROM "marked" WHERE "monthVerifications" = 1`)}),
    "recounted" AS (${countEventStatement(shop, "otp_reverified", "", p.verifiedAt, sql`FROM "marked" WHERE "monthVerifications" > 1`)}),
    "openSelection" AS (${selection ? selection.lookup : none}),
    "updatedSelection" AS (${selection ? sql`${selection.update(sql`(SELECT "id" FROM "openSelection")`, sql` AND EXISTS (SELECT 1 FROM "consumed")`)} RETURNING "id"` : none}),
    "newSelection" AS (${selection ? sql`${selection.insert(sql`FROM "consumed" WHERE NOT EXISTS (SELECT 1 FROM "updatedSelection")`)} RETURNING "id"` : none})
    SELECT (SELECT "id" FROM "consumed") AS "consumed", (SELECT "monthVerifications" FROM "marked") AS "monthVerifications",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
        WHERE "shopId" = ${p.shopId} AND "metric" = 'otp_verified' AND "day" >= ${monthStart} AND "day" <> ${today})
        + COALESCE((SELECT "count" FROM "counted"),
          (SELECT "count" FROM "DailyStat" WHERE "shopId" = ${p.shopId} AND "metric" = 'otp_verified' AND "day" = ${today} AND "dimension" = ''), 0)
        -- today's texts and calls counted against the allowance (app/billing/contact-allowance.server.ts)
        + (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
          WHERE "shopId" = ${p.shopId} AND "metric" = 'otp_verified' AND "day" = ${today} AND "dimension" <> '') AS "verifiedThisMonth",
      COALESCE((SELECT "id" FROM "updatedSelection"), (SELECT "id" FROM "newSelection")) AS "selectionId"
      ${p.riskKeys ? sql`, ${st.riskColumns(p.riskKeys)}` : sql``}`);
  // The mark is written in this statement, which does not see its own writes: the number is verified now.
  return st.completion({ ...row, verified: row.consumed != null ? 1 : row.verified }, row.consumed != null);
}

/** SQLite: one transaction (one commit). */
function completeOnSqlite(p: CompletionInput, st: Steps): Promise<Completion> {
  const { selection } = st;
  return transaction((tx) => {
    if (tx.execute(st.use) !== 1) return st.completion({}, false);
    const [marked] = tx.query<{ monthVerifications: unknown }>(st.mark());
    const counts = Number(marked.monthVerifications) === 1;
    tx.execute(countEventStatement(st.shop, counts ? "otp_verified" : "otp_reverified", "", p.verifiedAt));
    const [used] = tx.query<{ n: unknown }>(sql`
      SELECT COALESCE(SUM("count"), 0) AS "n" FROM "DailyStat" WHERE "shopId" = ${p.shopId} AND "metric" = 'otp_verified' AND "day" >= ${st.monthStart}`);
    let selectionId: string | null = null;
    if (selection) {
      const [open] = tx.query<{ id: string }>(selection.lookup);
      if (open && tx.execute(selection.update(sql`${open.id}`)) === 1) selectionId = open.id;
      else {
        tx.execute(selection.insert());
        selectionId = selection.newId;
      }
    }
    const [risk] = p.riskKeys ? tx.query<CompletionRow>(sql`SELECT ${st.riskColumns(p.riskKeys)}`) : [];
    return st.completion({ ...risk, verifiedThisMonth: used?.n, selectionId, monthVerifications: marked.monthVerifications }, true);
  });
}
