import { startLocalShopify } from "./shopify/local";

/**
 * Entry point of local mode's stand-ins (bundled and run by scripts/local.mjs): the fake Shopify on
 * LOCAL_SHOPIFY_PORT. Prints one line with its origin, then serves until SIGTERM/SIGINT.
 */
const shopify = await startLocalShopify({
  port: Number(process.env.LOCAL_SHOPIFY_PORT ?? 3001),
  host: "127.0.0.1",
  callTimeoutMs: Number(process.env.SHOPIFY_CALL_TIMEOUT_MS ?? 4000),
});
process.stdout.write(`local mode: fake Shopify at ${shopify.origin} answers Admin and Storefront calls\n`);
const stop = () => void shopify.stop().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
