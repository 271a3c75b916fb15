-- Hand-written: Prisma's schema cannot express a partial index; the same statements for both engines.
-- At most one open correction (pending or submitting) per order, across every app instance
-- (app/address-correction/open-correction.server.ts). Of duplicates made before this index, the
-- newest stays open and the older ones are closed as expired.
UPDATE "AddressCorrection" SET "status" = 'expired'
WHERE "status" IN ('pending', 'submitting') AND EXISTS (
  SELECT 1 FROM "AddressCorrection" AS "newer"
  WHERE "newer"."shopId" = "AddressCorrection"."shopId"
    AND "newer"."orderGid" = "AddressCorrection"."orderGid"
    AND "newer"."status" IN ('pending', 'submitting')
    AND ("newer"."createdAt" > "AddressCorrection"."createdAt"
      OR ("newer"."createdAt" = "AddressCorrection"."createdAt" AND "newer"."id" > "AddressCorrection"."id")));

CREATE UNIQUE INDEX "AddressCorrection_open_per_order_key" ON "AddressCorrection"("shopId", "orderGid")
WHERE "status" IN ('pending', 'submitting');
