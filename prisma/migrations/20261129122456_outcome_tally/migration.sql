-- DropIndex
DROP INDEX "OrderOutcome_shopId_postalCode_outcome_idx";

-- CreateTable
CREATE TABLE "OutcomeTally" (
    "shopId" TEXT NOT NULL,
    "postalCode" TEXT NOT NULL,
    "orders" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,

    PRIMARY KEY ("shopId", "postalCode"),
    CONSTRAINT "OutcomeTally_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Hand-written: Prisma's schema cannot express this; write the same change for both engines.
-- OutcomeTally counts OrderOutcome's learnt outcomes (orders: delivered or failed; failed) per postal code and for
-- the whole shop (postalCode ''), so orders/create reads a few rows instead of counting the shop's history
-- (app/risk/assess.server.ts). Triggers keep it in the writing statement, whoever writes: an upsert that moves an
-- outcome or its code, a redaction, the retention job, a cascade. A row's part is taken away from the tallies it
-- was in and added to those it is in now; a tally that falls to 0 goes, so a redacted code leaves no row behind.
-- A row whose code is '' (never written: codes are normalised to NULL when empty) counts for the shop alone.
CREATE TRIGGER "OrderOutcome_tally_insert" AFTER INSERT ON "OrderOutcome"
WHEN NEW."outcome" <> 'none'
BEGIN
  INSERT INTO "OutcomeTally" ("shopId", "postalCode", "orders", "failed")
    SELECT NEW."shopId", "code", 1, NEW."outcome" = 'failed'
    FROM (SELECT '' AS "code" UNION ALL SELECT NEW."postalCode" WHERE NEW."postalCode" <> '') WHERE true
    ON CONFLICT ("shopId", "postalCode") DO UPDATE SET "orders" = "orders" + 1, "failed" = "failed" + excluded."failed";
END;

CREATE TRIGGER "OrderOutcome_tally_delete" AFTER DELETE ON "OrderOutcome"
WHEN OLD."outcome" <> 'none'
BEGIN
  UPDATE "OutcomeTally" SET "orders" = "orders" - 1, "failed" = "failed" - (OLD."outcome" = 'failed')
    WHERE "shopId" = OLD."shopId" AND ("postalCode" = '' OR "postalCode" = OLD."postalCode");
  DELETE FROM "OutcomeTally" WHERE "shopId" = OLD."shopId" AND ("postalCode" = '' OR "postalCode" = OLD."postalCode") AND "orders" = 0;
END;

CREATE TRIGGER "OrderOutcome_tally_update" AFTER UPDATE ON "OrderOutcome"
WHEN OLD."outcome" IS NOT NEW."outcome" OR OLD."postalCode" IS NOT NEW."postalCode" OR OLD."shopId" IS NOT NEW."shopId"
BEGIN
  UPDATE "OutcomeTally" SET "orders" = "orders" - 1, "failed" = "failed" - (OLD."outcome" = 'failed')
    WHERE OLD."outcome" <> 'none' AND "shopId" = OLD."shopId" AND ("postalCode" = '' OR "postalCode" = OLD."postalCode");
  DELETE FROM "OutcomeTally" WHERE OLD."outcome" <> 'none' AND "shopId" = OLD."shopId" AND ("postalCode" = '' OR "postalCode" = OLD."postalCode") AND "orders" = 0;
  INSERT INTO "OutcomeTally" ("shopId", "postalCode", "orders", "failed")
    SELECT NEW."shopId", "code", 1, NEW."outcome" = 'failed'
    FROM (SELECT '' AS "code" UNION ALL SELECT NEW."postalCode" WHERE NEW."postalCode" <> '') WHERE NEW."outcome" <> 'none'
    ON CONFLICT ("shopId", "postalCode") DO UPDATE SET "orders" = "orders" + 1, "failed" = "failed" + excluded."failed";
END;

-- The tallies of the outcomes already learnt.
INSERT INTO "OutcomeTally" ("shopId", "postalCode", "orders", "failed")
  SELECT "shopId", '', COUNT(*), SUM("outcome" = 'failed') FROM "OrderOutcome" WHERE "outcome" <> 'none' GROUP BY "shopId"
  UNION ALL
  SELECT "shopId", "postalCode", COUNT(*), SUM("outcome" = 'failed') FROM "OrderOutcome" WHERE "outcome" <> 'none' AND "postalCode" <> '' GROUP BY "shopId", "postalCode";
