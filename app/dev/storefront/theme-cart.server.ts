import crypto from "node:crypto";
import { z } from "zod";
import { DEMO_PRODUCT } from "./demo-product";

/**
 * The theme's own cart for the local storefront: what Shopify's cart AJAX API (/cart.js,
 * /cart/update.js) keeps for one browser, held in memory and found by the browser's `cart` cookie.
 * The modal reads the lines from it (a block set to buy the whole cart) and writes the verification
 * proof into its attributes before the store's own checkout, as it does on a real store.
 */
export type ThemeCart = {
  token: string;
  note: string | null;
  attributes: Record<string, string>;
  items: { variant_id: number; quantity: number }[];
};

const CART_COOKIE = "cart";
const MAX_CARTS = 1000;
const carts = new Map<string, ThemeCart>();

/** Shopify's update.js body as far as the modal uses it: attributes (an empty value removes one) and a note. */
export const cartUpdateSchema = z
  .object({
    attributes: z.record(z.string().max(255), z.union([z.string().max(10_000), z.null()])).optional(),
    note: z.string().max(5000).nullish(),
  })
  .strict();
export type CartUpdate = z.infer<typeof cartUpdateSchema>;

function tokenFrom(request: Request): string | null {
  const m = /(?:^|;\s*)cart=([A-Za-z0-9_-]{16,64})(?:;|$)/.exec(request.headers.get("cookie") ?? "");
  return m ? m[1] : null;
}

/** The browser's cart (a new, empty one if it has none); `setCookie` when the browser must keep its token. */
function themeCartOf(request: Request): { cart: ThemeCart; setCookie: string | null } {
  const token = tokenFrom(request);
  const known = token ? carts.get(token) : undefined;
  if (known) return { cart: known, setCookie: null };
  // A new cart holds one of the demo product, so a block set to buy the whole cart has something to buy.
  const items = [{ variant_id: DEMO_PRODUCT.variants[1].id, quantity: 1 }];
  const cart: ThemeCart = { token: token ?? crypto.randomBytes(16).toString("base64url"), note: null, attributes: {}, items };
  // A development server: the oldest carts go first, so nothing grows without bound.
  if (carts.size >= MAX_CARTS) carts.delete(carts.keys().next().value!);
  carts.set(cart.token, cart);
  return { cart, setCookie: `${CART_COOKIE}=${cart.token}; Path=/; SameSite=Lax; HttpOnly` };
}

function updateThemeCart(cart: ThemeCart, update: CartUpdate): ThemeCart {
  for (const [key, value] of Object.entries(update.attributes ?? {})) {
    if (value === null || value === "") delete cart.attributes[key];
    else cart.attributes[key] = value;
  }
  if (update.note !== undefined) cart.note = update.note ?? null;
  return cart;
}

/** The cart as /cart.js and /cart/update.js answer it (the fields the modal reads, in Shopify's names). */
function cartJson(cart: ThemeCart) {
  const price = (variantId: number) => DEMO_PRODUCT.variants.find((v) => v.id === variantId)?.price ?? 0;
  const items = cart.items.map((i) => ({ ...i, price: price(i.variant_id), line_price: price(i.variant_id) * i.quantity }));
  return {
    token: cart.token,
    note: cart.note,
    attributes: cart.attributes,
    items,
    item_count: items.reduce((n, i) => n + i.quantity, 0),
    total_price: items.reduce((n, i) => n + i.line_price, 0),
    currency: "INR",
  };
}

/** GET /cart.js, and POST /cart/update.js with its parsed body: the browser's cart after the update. */
export function themeCartRequest(request: Request, update?: CartUpdate): { cart: ReturnType<typeof cartJson>; setCookie: string | null } {
  const { cart, setCookie } = themeCartOf(request);
  return { cart: cartJson(update ? updateThemeCart(cart, update) : cart), setCookie };
}
