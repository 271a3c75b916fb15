import * as route from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { recordSelection } from "~/otp/selection.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * orders/create on PostgreSQL with several app instances: two copies of one order's delivery that both
 * read the order's selection before either linked it. The selection's row is held locked until both
 * wait at their claim, so the race is certain, not hoped for: one claims, the other finds the link.
 */
const PHONE = "+212600000002";
const fake = useFakeShopify();
beforeEach(() => handlers.installDefaultHandlers(fake, {}, new Map()));

function deliver(payload: unknown, options: Parameters<typeof signedWebhook>[2] = {}) {
  return callRoute(route, signedWebhook("orders/create", payload, options));
}

async function selectionFor(shopId: string) {
  return recordSelection({ shopId, phone: PHONE, mode: "cod", source: "verify-otp", verified: true });
}

describe("orders/create: two copies racing for one selection (PostgreSQL)", () => {
  it(
    "two copies that both read before either linked: one claims, the other finds the link and writes the same order (PostgreSQL)",
    async () => {
      const shop = await installShop();
      const sel = await selectionFor(shop.id);
      const order = orderCreatedPayload({ phone: PHONE });
      let both!: Promise<Response[]>;
      // The selection's row is locked until both copies have read it and wait at their claim.
      await prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT "id" FROM "Selection" WHERE "id" = ${sel.id} FOR UPDATE`;
          both = Promise.all([deliver(order, { webhookId: "a" }), deliver(order, { webhookId: "b" })]);
          for (let waiting = 0; waiting < 2; ) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            [{ waiting }] = await prisma.$queryRaw<{ waiting: number }[]>`SELECT COUNT(*)::int AS "waiting" FROM pg_locks WHERE NOT granted`;
          }
        },
        { timeout: 20_000 },
      );
      expect((await both).map((r) => r.status)).toEqual([200, 200]);
      expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBe(order.admin_graphql_api_id);
      expect(await prisma.webhookDelivery.count()).toBe(2);
      expect(await prisma.orderRecord.count({ where: { orderGid: order.admin_graphql_api_id } })).toBe(1);
      expect(await prisma.orderConfirmation.count({ where: { orderGid: order.admin_graphql_api_id } })).toBe(1);
      const kinds = (await prisma.job.findMany({ select: { kind: true } })).map((j) => j.kind).sort();
      expect(kinds).toEqual(["flow.trigger", "flow.trigger", "order-confirmation.deadline", "order-confirmation.notify", "order-risk-assessment", "order-tags"]);
    },
  );
});
