-- DropIndex
DROP INDEX "OrderOutcome_shopId_postalCode_outcome_idx";

-- CreateTable
CREATE TABLE "OutcomeTally" (
    "shopId" TEXT NOT NULL,
    "postalCode" TEXT NOT NULL,
    "orders" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,

    CONSTRAINT "OutcomeTally_pkey" PRIMARY KEY ("shopId","postalCode")
);

-- AddForeignKey
ALTER TABLE "OutcomeTally" ADD CONSTRAINT "OutcomeTally_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: Prisma's schema cannot express this; write the same change for both engines.
-- OutcomeTally counts OrderOutcome's learnt outcomes (orders: delivered or failed; failed) per postal code and for
-- the whole shop (postalCode ''), so orders/create reads a few rows instead of counting the shop's history
-- (app/risk/assess.server.ts). Triggers keep it in the writing statement's transaction, whoever writes: an upsert
-- that moves an outcome or its code, a redaction, the retention job, a cascade. A statement's rows are taken away
-- from the tallies they were in and added to those they are in now, summed per tally first, so each tally is written
-- once a statement: row by row, a statement of many rows would write the shop's tally as many times, and PostgreSQL
-- walks every version of a row written again in one transaction (50,000 outcomes written in one statement took 51 s
-- so, 1 s summed; a shop's deletion takes all its outcomes in one statement). The tallies are written in key order, the shop's first,
-- so two writers never wait on each other in a circle; a tally that falls to 0 goes, so a redacted code leaves no row.

-- Applies a statement's changes: rows of OutcomeTally's type, one per (shop, code) the statement's rows were or are
-- in, with the orders and failures to add (negative to take away); a NULL or '' code counts for the shop alone.
CREATE FUNCTION "OutcomeTally_apply"("changes" "OutcomeTally"[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "emptied" "OutcomeTally"[];
BEGIN
  -- An upsert fires the INSERT and the UPDATE statement triggers, one of them without rows.
  IF cardinality("changes") = 0 THEN
    RETURN;
  END IF;
  WITH "deltas" AS (
    SELECT c."shopId", k."code", SUM(c."orders") AS "orders", SUM(c."failed") AS "failed"
    FROM unnest("changes") c CROSS JOIN LATERAL (VALUES (''), (NULLIF(c."postalCode", ''))) AS k("code")
    WHERE k."code" IS NOT NULL
    GROUP BY c."shopId", k."code"
  ), "written" AS (
    INSERT INTO "OutcomeTally" AS t ("shopId", "postalCode", "orders", "failed")
      SELECT "shopId", "code", "orders", "failed" FROM "deltas"
      -- A shop's outcomes deleted with the shop (its tallies went the same way): nothing left to count.
      WHERE ("orders" <> 0 OR "failed" <> 0) AND EXISTS (SELECT 1 FROM "Shop" s WHERE s."id" = "deltas"."shopId")
      ORDER BY "shopId", "code"
      ON CONFLICT ("shopId", "postalCode") DO UPDATE SET "orders" = t."orders" + excluded."orders", "failed" = t."failed" + excluded."failed"
      RETURNING t.*
  )
  SELECT array_agg(w) INTO "emptied" FROM "written" w WHERE w."orders" = 0;
  -- A statement apart: a statement's WITH writes are invisible to its own main part.
  IF "emptied" IS NOT NULL THEN
    DELETE FROM "OutcomeTally" t USING unnest("emptied") e WHERE t."shopId" = e."shopId" AND t."postalCode" = e."postalCode" AND t."orders" = 0;
  END IF;
END
$$;

-- A statement's learnt rows grouped by shop and code, as changes (taken away: negative; an update's both).
CREATE FUNCTION "OrderOutcome_tally_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "OutcomeTally_apply"(ARRAY(
    SELECT ROW("shopId", "postalCode", COUNT(*), COUNT(*) FILTER (WHERE "outcome" = 'failed'))::"OutcomeTally"
    FROM "outcome_new" WHERE "outcome" <> 'none' GROUP BY "shopId", "postalCode"));
  RETURN NULL;
END
$$;

CREATE FUNCTION "OrderOutcome_tally_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "OutcomeTally_apply"(ARRAY(
    SELECT ROW("shopId", "postalCode", -COUNT(*), -COUNT(*) FILTER (WHERE "outcome" = 'failed'))::"OutcomeTally"
    FROM "outcome_old" WHERE "outcome" <> 'none' GROUP BY "shopId", "postalCode"));
  RETURN NULL;
END
$$;

CREATE FUNCTION "OrderOutcome_tally_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "OutcomeTally_apply"(ARRAY(
    SELECT ROW("shopId", "postalCode", SUM("sign"), COALESCE(SUM("sign") FILTER (WHERE "outcome" = 'failed'), 0))::"OutcomeTally"
    FROM (SELECT "shopId", "postalCode", "outcome", 1 AS "sign" FROM "outcome_new" UNION ALL SELECT "shopId", "postalCode", "outcome", -1 FROM "outcome_old") AS "rows"
    WHERE "outcome" <> 'none' GROUP BY "shopId", "postalCode"));
  RETURN NULL;
END
$$;

-- No live write between the tallies' first count below and the triggers: writers wait for this migration's commit.
LOCK TABLE "OrderOutcome" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER "OrderOutcome_tally_insert" AFTER INSERT ON "OrderOutcome"
  REFERENCING NEW TABLE AS "outcome_new" FOR EACH STATEMENT EXECUTE FUNCTION "OrderOutcome_tally_insert"();
CREATE TRIGGER "OrderOutcome_tally_delete" AFTER DELETE ON "OrderOutcome"
  REFERENCING OLD TABLE AS "outcome_old" FOR EACH STATEMENT EXECUTE FUNCTION "OrderOutcome_tally_delete"();
CREATE TRIGGER "OrderOutcome_tally_update" AFTER UPDATE ON "OrderOutcome"
  REFERENCING OLD TABLE AS "outcome_old" NEW TABLE AS "outcome_new" FOR EACH STATEMENT EXECUTE FUNCTION "OrderOutcome_tally_update"();

-- The tallies of the outcomes already learnt.
INSERT INTO "OutcomeTally" ("shopId", "postalCode", "orders", "failed")
  SELECT "shopId", '', COUNT(*), COUNT(*) FILTER (WHERE "outcome" = 'failed') FROM "OrderOutcome" WHERE "outcome" <> 'none' GROUP BY "shopId"
  UNION ALL
  SELECT "shopId", "postalCode", COUNT(*), COUNT(*) FILTER (WHERE "outcome" = 'failed') FROM "OrderOutcome" WHERE "outcome" <> 'none' AND "postalCode" <> '' GROUP BY "shopId", "postalCode";
