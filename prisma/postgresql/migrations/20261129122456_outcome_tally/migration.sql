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
-- (app/risk/assess.server.ts). A trigger keeps it in the writing statement's transaction, whoever writes: an upsert
-- that moves an outcome or its code, a redaction, the retention job, a cascade. A row's part is taken away from the
-- tallies it was in and added to those it is in now; a tally that falls to 0 goes, so a redacted code leaves no row
-- behind. The shop's row is always locked first, so two writers of one shop never wait on each other in a circle.
-- A row whose code is '' (never written: codes are normalised to NULL when empty) counts for the shop alone.
CREATE FUNCTION "OrderOutcome_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD."outcome" <> 'none' THEN
      UPDATE "OutcomeTally" SET "orders" = "orders" - 1, "failed" = "failed" - (OLD."outcome" = 'failed')::int
        WHERE "shopId" = OLD."shopId" AND "postalCode" = '';
      IF OLD."postalCode" <> '' THEN
        UPDATE "OutcomeTally" SET "orders" = "orders" - 1, "failed" = "failed" - (OLD."outcome" = 'failed')::int
          WHERE "shopId" = OLD."shopId" AND "postalCode" = OLD."postalCode";
      END IF;
      DELETE FROM "OutcomeTally" WHERE "shopId" = OLD."shopId" AND "postalCode" IN ('', OLD."postalCode") AND "orders" = 0;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW."outcome" <> 'none' THEN
      INSERT INTO "OutcomeTally" AS t ("shopId", "postalCode", "orders", "failed") VALUES (NEW."shopId", '', 1, (NEW."outcome" = 'failed')::int)
        ON CONFLICT ("shopId", "postalCode") DO UPDATE SET "orders" = t."orders" + 1, "failed" = t."failed" + excluded."failed";
      IF NEW."postalCode" <> '' THEN
        INSERT INTO "OutcomeTally" AS t ("shopId", "postalCode", "orders", "failed") VALUES (NEW."shopId", NEW."postalCode", 1, (NEW."outcome" = 'failed')::int)
          ON CONFLICT ("shopId", "postalCode") DO UPDATE SET "orders" = t."orders" + 1, "failed" = t."failed" + excluded."failed";
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- No live write between the tallies' first count below and the triggers: writers wait for this migration's commit.
LOCK TABLE "OrderOutcome" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER "OrderOutcome_tally_insert" AFTER INSERT ON "OrderOutcome"
  FOR EACH ROW WHEN (NEW."outcome" <> 'none') EXECUTE FUNCTION "OrderOutcome_tally"();
CREATE TRIGGER "OrderOutcome_tally_delete" AFTER DELETE ON "OrderOutcome"
  FOR EACH ROW WHEN (OLD."outcome" <> 'none') EXECUTE FUNCTION "OrderOutcome_tally"();
CREATE TRIGGER "OrderOutcome_tally_update" AFTER UPDATE ON "OrderOutcome"
  FOR EACH ROW WHEN (OLD."outcome" IS DISTINCT FROM NEW."outcome" OR OLD."postalCode" IS DISTINCT FROM NEW."postalCode" OR OLD."shopId" IS DISTINCT FROM NEW."shopId")
  EXECUTE FUNCTION "OrderOutcome_tally"();

-- The tallies of the outcomes already learnt.
INSERT INTO "OutcomeTally" ("shopId", "postalCode", "orders", "failed")
  SELECT "shopId", '', COUNT(*), COUNT(*) FILTER (WHERE "outcome" = 'failed') FROM "OrderOutcome" WHERE "outcome" <> 'none' GROUP BY "shopId"
  UNION ALL
  SELECT "shopId", "postalCode", COUNT(*), COUNT(*) FILTER (WHERE "outcome" = 'failed') FROM "OrderOutcome" WHERE "outcome" <> 'none' AND "postalCode" <> '' GROUP BY "shopId", "postalCode";
