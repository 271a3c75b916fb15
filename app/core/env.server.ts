import fs from "node:fs";
import path from "node:path";
import toml from "toml";
import { z } from "zod";

/**
 * Configuration, validated once at start-up. Development and tests run with no secrets at all
 * (local mode); production refuses to start without the secrets it needs, naming each one.
 */
const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1"));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  SHOPIFY_APP_URL: z.string().url().optional(),
  SHOPIFY_API_KEY: z.string().min(1).optional(),
  SHOPIFY_API_SECRET: z.string().min(1).optional(),
  SCOPES: z.string().optional(),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  /** Key of the HMAC under which one-time codes and tokens are stored. */
  OTP_HASH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** `outbox` writes SMS to data/outbox.jsonl instead of sending them. */
  SMS_PROVIDER: z.enum(["twilio", "outbox"]).optional(),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional(),
  TWILIO_FROM_NUMBER: z.string().optional(),
  TWILIO_WHATSAPP_FROM: z.string().optional(),
  /**
   * The caller ID of the confirmation ladder's voice rung (a Twilio voice-capable number, E.164); defaults
   * to TWILIO_FROM_NUMBER. Without either, the voice rung is skipped (a messaging service cannot call).
   */
  TWILIO_VOICE_FROM: z.string().regex(/^\+[1-9]\d{6,14}$/, "an E.164 number such as +15005550006").optional(),
  /**
   * The approved WhatsApp template for one-time codes (Twilio Content API content SID, HX...), with the
   * code as its variable {{1}}. WhatsApp refuses free text outside a 24-hour session, so without it
   * codes go by SMS. Optional per language: "HXaaa" or "en:HXaaa,ar:HXbbb,*:HXccc".
   */
  TWILIO_WHATSAPP_CONTENT_SID: z.string().regex(/^([a-z*]{1,3}:)?HX[0-9a-fA-F]{32}(,([a-z*]{1,3}:)?HX[0-9a-fA-F]{32})*$/, "HX... content SIDs, optionally per language (en:HX...,ar:HX...)").optional(),
  /**
   * The approved WhatsApp template that asks a shopper to confirm a cash-on-delivery order (Content API
   * type twilio/quick-reply, category utility): variables {{1}} shop, {{2}} order, {{3}} summary, and
   * quick-reply buttons whose ids are `confirm`, `cancel` and `change_address` (docs/whatsapp.md).
   * Same per-language form as TWILIO_WHATSAPP_CONTENT_SID. Without it the confirmation goes by SMS link.
   */
  TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: z.string().regex(/^([a-z*]{1,3}:)?HX[0-9a-fA-F]{32}(,([a-z*]{1,3}:)?HX[0-9a-fA-F]{32})*$/, "HX... content SIDs, optionally per language (en:HX...,ar:HX...)").optional(),
  /**
   * The approved WhatsApp template that carries a link (utility): {{1}} shop, {{2}} order, {{3}} the link.
   * Used for the address-correction and confirmation links of shops that send links on WhatsApp.
   */
  TWILIO_WHATSAPP_LINK_CONTENT_SID: z.string().regex(/^([a-z*]{1,3}:)?HX[0-9a-fA-F]{32}(,([a-z*]{1,3}:)?HX[0-9a-fA-F]{32})*$/, "HX... content SIDs, optionally per language (en:HX...,ar:HX...)").optional(),
  /** Development and tests only: send Twilio API calls to this origin instead of Twilio's. */
  TWILIO_API_BASE: z.string().url().optional(),
  /** Bound on one SMS send (all Twilio calls of it, WhatsApp fallback included), in milliseconds. */
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  /** Where the outbox SMS provider appends outbox.jsonl. */
  OUTBOX_DIR: z.string().default("data"),
  /** The app-proxy subpath chosen in shopify.app.toml: https://<shop>/apps/<subpath>/... */
  APP_PROXY_SUBPATH: z.string().regex(/^[a-z0-9-]+$/).default("cod"),
  APP_PROXY_PREFIX: z.enum(["apps", "a", "community", "tools"]).default("apps"),
  /** Local mode: a demo shop, SMS to the outbox, no Shopify store needed. Defaults on outside production. */
  LOCAL_MODE: bool,
  /** Development and tests only: send Shopify API calls to this origin instead of the shop's. */
  SHOPIFY_API_ORIGIN: z.string().url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Seconds a cached session or shop row may be served before it is read again. */
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** Bound on each Shopify API call made while a shopper waits (create-checkout) or a tag job runs. */
  SHOPIFY_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(30000).default(4000),
  /**
   * How many proxies of the app's own (load balancer, CDN) append to X-Forwarded-For after Shopify's app
   * proxy: the shopper's IP is that many entries before the right-most one (app/http/shopper-ip.server.ts).
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  /** The bearer token GET /metrics asks for (Prometheus text); unset, /metrics answers 404. */
  METRICS_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  /** A price table (the channel report's format, e.g. scripts/message-prices.json) for the messages' cost in /metrics. */
  MESSAGE_PRICE_TABLE: z.string().min(1).optional(),
});

export type Env = ReturnType<typeof loadEnv>;

/** Every variable the app's configuration reads (`.env.example` lists each one; a test holds it so). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

const DEV_DEFAULTS = {
  SHOPIFY_API_KEY: "local-dev-api-key",
  SHOPIFY_API_SECRET: "local-dev-api-secret",
  OTP_HASH_SECRET: "local-dev-otp-hash-secret-0123456789abcdef",
};

/**
 * The access scopes the app asks for are written once, in shopify.app.toml (`[access_scopes] scopes`),
 * which Shopify installs the app with; the app reads them from there at start (SCOPES overrides it where
 * the file is not deployed beside the server).
 */
export function scopesOfAppConfig(root = process.cwd()): string | undefined {
  const file = path.join(root, "shopify.app.toml");
  if (!fs.existsSync(file)) return undefined;
  const config = toml.parse(fs.readFileSync(file, "utf8")) as { access_scopes?: { scopes?: unknown } };
  const scopes = config.access_scopes?.scopes;
  return typeof scopes === "string" && scopes.trim() ? scopes.replace(/\s+/g, "") : undefined;
}

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  // An empty variable counts as unset.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const localMode = e.LOCAL_MODE ?? (!production && !e.SHOPIFY_API_KEY);

  if (production) {
    const required: (keyof typeof e)[] = ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "OTP_HASH_SECRET"];
    if (e.SMS_PROVIDER !== "outbox") required.push("TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN");
    const missing = required.filter((k) => !e[k]);
    if (e.SMS_PROVIDER !== "outbox" && !e.TWILIO_MESSAGING_SERVICE_SID && !e.TWILIO_FROM_NUMBER) {
      missing.push("TWILIO_MESSAGING_SERVICE_SID or TWILIO_FROM_NUMBER" as keyof typeof e);
    }
    // The outbox sends nothing: shoppers would never get a code. In production it is only for a
    // local demo of the built server, which must say so explicitly (LOCAL_MODE=true).
    if (e.SMS_PROVIDER === "outbox" && !localMode) {
      throw new Error(
        "SMS_PROVIDER=outbox is refused in production: it sends no SMS, so shoppers would never get their codes. " +
          "Unset it and set the Twilio variables (or set LOCAL_MODE=true for a local demo of the production build).",
      );
    }
    if (e.TWILIO_API_BASE && !localMode) {
      throw new Error("TWILIO_API_BASE redirects Twilio API calls and is refused in production.");
    }
    if (e.SHOPIFY_API_ORIGIN) {
      throw new Error("SHOPIFY_API_ORIGIN redirects Shopify API calls and is refused in production.");
    }
    if (missing.length) {
      throw new Error(
        `Missing required configuration in production: ${missing.join(", ")}. ` +
          "Set them in the environment (see .env.example).",
      );
    }
  }
  const scopes = e.SCOPES ?? scopesOfAppConfig();
  if (!scopes) throw new Error("No access scopes: shopify.app.toml ([access_scopes] scopes) is not in the working directory and SCOPES is not set.");
  const hasTwilio = Boolean(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN);
  return {
    ...e,
    production,
    localMode,
    SHOPIFY_API_KEY: e.SHOPIFY_API_KEY ?? DEV_DEFAULTS.SHOPIFY_API_KEY,
    SHOPIFY_API_SECRET: e.SHOPIFY_API_SECRET ?? DEV_DEFAULTS.SHOPIFY_API_SECRET,
    OTP_HASH_SECRET: e.OTP_HASH_SECRET ?? DEV_DEFAULTS.OTP_HASH_SECRET,
    SHOPIFY_APP_URL: e.SHOPIFY_APP_URL ?? `http://localhost:${e.PORT}`,
    SCOPES: scopes,
    SMS_PROVIDER: e.SMS_PROVIDER ?? (hasTwilio && !localMode ? "twilio" : "outbox"),
    /** The storefront path prefix of our proxy, e.g. /apps/cod */
    proxyBasePath: `/${e.APP_PROXY_PREFIX}/${e.APP_PROXY_SUBPATH}`,
  };
}

export const env = loadEnv();
