import { prisma } from "~/core/db.server";
import { forgetShop, type Shop } from "~/core/settings/shop.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { THEME_APP_BLOCKS } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";

/**
 * Whether shoppers can verify on the storefront, which checkout enforcement waits for: hiding cash on
 * delivery before the app's button is on the store would leave every shopper without a way to get it
 * back. Ready when the app's block is on the live theme (read with `read_themes`: THEME_APP_BLOCKS), or
 * when the merchant confirms it (a headless store, a theme the check cannot read). A later check that
 * finds the block gone takes back a readiness the theme gave, never the merchant's word.
 */

/** The app's block in the theme app extension (extensions/cod-verify/blocks/cod-button.liquid). */
export const APP_BLOCK_HANDLE = "cod-button";

export type StorefrontReadiness = "theme" | "merchant" | null;

export function storefrontReadiness(shop: Pick<Shop, "storefrontReadyAt" | "storefrontReadyBy">): StorefrontReadiness {
  if (!shop.storefrontReadyAt) return null;
  return shop.storefrontReadyBy === "merchant" ? "merchant" : "theme";
}

type ThemeReply = { themes: { nodes: { name: string; files: { nodes: { filename: string; body: { content?: string } | null }[] } }[] } };

/** Whether a JSON template holds the app's block (`shopify://apps/<app>/blocks/cod-button/<uuid>`), not disabled. */
export function templateHasAppBlock(content: string): boolean {
  const blockType = new RegExp(`"type"\\s*:\\s*"shopify://apps/[^"/]+/blocks/${APP_BLOCK_HANDLE}/[^"]+"(?:\\s*,\\s*"disabled"\\s*:\\s*(true|false))?`, "g");
  for (const m of content.matchAll(blockType)) if (m[1] !== "true") return true;
  return false;
}

/** The block's state in the live theme; null when Shopify could not be asked. */
export async function storefrontBlock(shop: string): Promise<{ added: boolean; theme: string } | null> {
  const result = await shopifyGraphql<ThemeReply>("admin", shop, THEME_APP_BLOCKS);
  if (!result.ok) {
    log.warn("the live theme could not be read", { shop, cause: result.cause });
    return null;
  }
  const theme = result.data.themes?.nodes?.[0];
  if (!theme) return { added: false, theme: "" };
  return { added: theme.files.nodes.some((f) => templateHasAppBlock(f.body?.content ?? "")), theme: theme.name };
}

type ReadinessShop = Pick<Shop, "id" | "domain" | "storefrontReadyAt" | "storefrontReadyBy">;

/**
 * Records what a theme check found (null: Shopify did not answer, nothing changes). Returns whether the
 * readiness changed, so the caller brings checkout in step. Conditional updates: a merchant's
 * confirmation landing meanwhile is never overwritten.
 */
export async function noteThemeCheck(shop: ReadinessShop, block: { added: boolean } | null): Promise<boolean> {
  if (!block || storefrontReadiness(shop) === "merchant") return false;
  let count = 0;
  if (block.added && !shop.storefrontReadyAt) {
    ({ count } = await prisma.shop.updateMany({ where: { id: shop.id, storefrontReadyAt: null }, data: { storefrontReadyAt: clock.now(), storefrontReadyBy: "theme" } }));
  } else if (!block.added && shop.storefrontReadyAt) {
    ({ count } = await prisma.shop.updateMany({ where: { id: shop.id, storefrontReadyBy: "theme" }, data: { storefrontReadyAt: null, storefrontReadyBy: null } }));
  }
  if (count) {
    forgetShop(shop.domain);
    log.info("storefront readiness from the live theme", { shop: shop.domain, ready: block.added });
  }
  return count > 0;
}

/** The merchant says shoppers can verify on the storefront (Home). */
export async function confirmStorefrontReady(domain: string): Promise<Shop> {
  const shop = await prisma.shop.update({ where: { domain }, data: { storefrontReadyAt: clock.now(), storefrontReadyBy: "merchant" } });
  forgetShop(domain);
  return shop;
}

/**
 * The readiness a sync of the payment customization acts on: the shop's as recorded, after asking the
 * live theme when the merchant has not confirmed (one Admin call; a sync runs on transitions only).
 */
export async function currentStorefrontReadiness<S extends ReadinessShop>(shop: S): Promise<S> {
  if (storefrontReadiness(shop) === "merchant") return shop;
  if (!(await noteThemeCheck(shop, await storefrontBlock(shop.domain)))) return shop;
  const row = await prisma.shop.findUnique({ where: { id: shop.id }, select: { storefrontReadyAt: true, storefrontReadyBy: true } });
  return row ? { ...shop, ...row } : shop;
}
