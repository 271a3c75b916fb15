import { startLocalShopify } from "./shopify/local";
import { LOCAL_TEMPLATES, startFakeTwilio } from "./twilio";

/**
 * Entry point of local mode's stand-ins (bundled and run by scripts/local.mjs): the fake Shopify on
 * LOCAL_SHOPIFY_PORT and, when LOCAL_TWILIO_PORT is set (`npm run local -- --twilio`), the fake Twilio
 * on that port. Prints one line per stand-in with its origin, then serves until SIGTERM/SIGINT.
 */
const shopify = await startLocalShopify({
  port: Number(process.env.LOCAL_SHOPIFY_PORT ?? 3001),
  host: "127.0.0.1",
  callTimeoutMs: Number(process.env.SHOPIFY_CALL_TIMEOUT_MS ?? 4000),
});
process.stdout.write(`local mode: fake Shopify at ${shopify.origin} answers Admin and Storefront calls\n`);

const twilio = process.env.LOCAL_TWILIO_PORT
  ? await startFakeTwilio({
      port: Number(process.env.LOCAL_TWILIO_PORT),
      host: "127.0.0.1",
      templates: LOCAL_TEMPLATES,
      appUrl: process.env.LOCAL_APP_URL,
      // The developer is the shopper: each text is shown whole, as the outbox shows it.
      onMessage: (m) => process.stdout.write(`[fake Twilio] ${m.channel} to ${m.to}: ${m.body.replace(/\n+/g, " ⏎ ")}\n`),
      onCall: (c) => process.stdout.write(`[fake Twilio] call to ${c.to} (answer it on /phone): ${c.spoken[0] ?? ""}\n`),
    })
  : null;
if (twilio) process.stdout.write(`local mode: fake Twilio at ${twilio.url} takes the texts (GET ${twilio.url}/messages lists them)\n`);
if (twilio) process.stdout.write(`local mode: the fake phone at ${twilio.url}/phone shows them, presses the shopper's WhatsApp buttons and answers calls\n`);

const stop = () => void Promise.all([shopify.stop(), twilio?.close()]).finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
