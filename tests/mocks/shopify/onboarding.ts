import { OPERATIONS } from "../../../app/core/shopify/operations";
import type { FakeShopify, Handler } from "./server";

/**
 * What the admin's onboarding checklist reads from a store, answered as the Admin API does (2026-10):
 * the live theme's product and cart templates (JSON templates start with Shopify's comment block) and
 * the payment gateway names of recent orders.
 */
export const APP_BLOCK_TYPE = "shopify://apps/cod-verify/blocks/cod-button/0c5f8a8e-4c5c-4b11-9d7e-1f2a3b4c5d6e";

export function productTemplate(options: { withBlock: boolean; disabled?: boolean }): string {
  const blocks: Record<string, unknown> = { title: { type: "title", settings: {} }, buy_buttons: { type: "buy_buttons", settings: {} } };
  if (options.withBlock) blocks.cod = { type: APP_BLOCK_TYPE, ...(options.disabled ? { disabled: true } : {}), settings: { proxy_path: "/apps/cod" } };
  return `/*\n * ------------------------------------------------------------\n * IMPORTANT: The contents of this file are auto-generated.\n * ------------------------------------------------------------\n */\n${JSON.stringify({ sections: { main: { type: "main-product", blocks, block_order: Object.keys(blocks) } }, order: ["main"] }, null, 2)}`;
}

export function themeAppBlocks(options: { withBlock: boolean; disabled?: boolean; theme?: string } = { withBlock: true }): Handler {
  return () => ({
    data: {
      themes: {
        nodes: [
          {
            id: "gid://shopify/OnlineStoreTheme/1",
            name: options.theme ?? "Dawn",
            files: { nodes: [{ filename: "templates/product.json", body: { content: productTemplate(options) } }] },
          },
        ],
      },
    },
  });
}

export function recentOrderGateways(orders: string[][] = [["Cash on Delivery (COD)"], ["shopify_payments"], ["Cash on Delivery (COD)"]]): Handler {
  return () => ({ data: { orders: { nodes: orders.map((paymentGatewayNames) => ({ paymentGatewayNames })) } } });
}

/** Local mode's store: the block is on the live theme (the local storefront shows it), three recent orders. */
export function installOnboardingHandlers(fake: FakeShopify): FakeShopify {
  return fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: true }), "admin").on(OPERATIONS.recentOrderGateways, recentOrderGateways(), "admin");
}
