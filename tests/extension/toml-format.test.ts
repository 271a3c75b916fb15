import fs from "node:fs";
import path from "node:path";
import toml from "toml";
import { z } from "zod";

/**
 * shopify.app.toml and every extension's shopify.extension.toml against Shopify's documented format: the keys
 * and value types of the app configuration reference (shopify.dev/docs/apps/build/cli-for-apps/app-configuration)
 * and of the Shopify CLI's schemas that read these files (Shopify/cli @ a0798d198d1c, 2026-08-21:
 * packages/app/src/cli/models/app/app.ts `AppSchema`; models/extensions/schemas.ts `BaseSchema`; and
 * models/extensions/specifications/ app_config_{app_home,app_access,branding,point_of_sale,app_proxy}.ts,
 * app_config_webhook_schemas/{webhooks_schema,webhook_subscription_schema}.ts, function.ts, theme.ts,
 * flow_{action,trigger,template}.ts). The CLI's schemas strip a key they do not know without a word, so a
 * misspelt key (`embeded`, `redirect_url`, `runtime_uri`) would deploy as if it were absent: here every object
 * is strict, and an unknown key fails.
 */
const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => toml.parse(fs.readFileSync(path.join(ROOT, file), "utf8")) as Record<string, unknown>;

const url = z.string().url().refine((u) => u.startsWith("https://"), "an https URL");
/** A webhook subscription's URI: a path under application_url, or a full https URL (pubsub/eventbridge not used). */
const webhookUri = z.string().regex(/^(\/[A-Za-z0-9/_.-]*|https:\/\/\S+)$/);
const handle = z.string().max(50).regex(/^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/);

const subscription = z
  .object({
    topics: z.array(z.string()).optional(),
    actions: z.array(z.string()).optional(),
    uri: webhookUri,
    include_fields: z.array(z.string()).optional(),
    filter: z.string().optional(),
    payload_query: z.string().min(1).optional(),
    name: z.string().min(1).max(50).optional(),
    compliance_topics: z.array(z.enum(["customers/redact", "customers/data_request", "shop/redact"])).optional(),
  })
  .strict()
  .refine((s) => Boolean(s.topics?.length) !== Boolean(s.compliance_topics?.length), "one of topics or compliance_topics");

const APP_CONFIGURATION = z
  .object({
    client_id: z.string().min(1),
    name: z.string().max(30),
    handle: z.string().max(256).regex(/^[_a-z0-9-]+$/).optional(),
    application_url: url,
    embedded: z.boolean(),
    app_preferences: z.object({ url: url.pipe(z.string().max(255)) }).strict().optional(),
    build: z.object({ automatically_update_urls_on_dev: z.boolean().optional(), dev_store_url: z.string().optional(), include_config_on_deploy: z.boolean().optional() }).strict().optional(),
    extension_directories: z.array(z.string()).optional(),
    web_directories: z.array(z.string()).optional(),
    access_scopes: z
      .object({ scopes: z.string().regex(/^[a-z_]+(,[a-z_]+)*$/).optional(), required_scopes: z.array(z.string()).optional(), optional_scopes: z.array(z.string()).optional(), use_legacy_install_flow: z.boolean().optional() })
      .strict()
      .optional(),
    access: z.object({ admin: z.object({ direct_api_mode: z.enum(["online", "offline"]).optional(), embedded_app_direct_api_access: z.boolean().optional() }).strict().optional() }).strict().optional(),
    auth: z.object({ redirect_urls: z.array(url).min(1) }).strict(),
    webhooks: z
      .object({
        api_version: z.string().regex(/^\d{4}-(01|04|07|10)$/),
        privacy_compliance: z.object({ customer_deletion_url: webhookUri.optional(), customer_data_request_url: webhookUri.optional(), shop_deletion_url: webhookUri.optional() }).strict().optional(),
        subscriptions: z.array(subscription).optional(),
      })
      .strict(),
    // The app proxy page: the subpath is letters, digits, `_` and `-`, at most 30, not one of Shopify's own paths.
    app_proxy: z
      .object({ url: z.string().regex(/^(\/|https:\/\/)\S*$/), subpath: z.string().regex(/^[A-Za-z0-9_-]{1,30}$/).refine((s) => !["admin", "services", "password", "login"].includes(s)), prefix: z.enum(["apps", "a", "community", "tools"]) })
      .strict()
      .optional(),
    pos: z.object({ embedded: z.boolean() }).strict().optional(),
  })
  .strict()
  // "Configuring an app proxy requires the write_app_proxy access scope" (shopify.dev/docs/apps/build/online-store/display-dynamic-data).
  .refine((app) => !app.app_proxy || (app.access_scopes?.scopes ?? "").split(",").includes("write_app_proxy"), { message: "an app proxy needs the write_app_proxy scope", path: ["access_scopes", "scopes"] });

/** BaseSchema: the keys every extension may carry. */
const base = {
  name: z.string(),
  type: z.string(),
  handle: handle.optional(),
  uid: z.string().optional(),
  description: z.string().optional(),
  api_version: z.string().optional(),
};
const field = z
  .object({ key: z.string().optional(), name: z.string().optional(), description: z.string().optional(), required: z.boolean().optional(), default_value: z.unknown().optional(), type: z.string(), validations: z.array(z.unknown()).optional() })
  .strict();
const settings = z.object({ fields: z.array(field).optional() }).strict();

const EXTENSION_BY_TYPE = {
  function: z
    .object({
      ...base,
      handle,
      api_version: z.string().regex(/^\d{4}-(01|04|07|10)$/),
      build: z.object({ command: z.string().optional(), path: z.string().optional(), watch: z.union([z.string(), z.array(z.string())]).optional(), wasm_opt: z.boolean().optional(), typegen_command: z.string().optional() }).strict().optional(),
      configuration_ui: z.boolean().optional(),
      ui: z.object({ enable_create: z.boolean().optional(), paths: z.object({ create: z.string(), details: z.string() }).strict().optional(), handle: z.string().optional() }).strict().optional(),
      input: z.object({ variables: z.object({ namespace: z.string(), key: z.string() }).strict().optional() }).strict().optional(),
      targeting: z.array(z.object({ target: z.string(), input_query: z.string().optional(), export: z.string().regex(/^[a-z0-9-]+$/).optional() }).strict()).min(1),
    })
    .strict(),
  theme: z.object({ ...base, type: z.literal("theme"), extension_points: z.unknown().optional(), settings: settings.optional() }).strict(),
  flow_action: z
    .object({ ...base, handle, runtime_url: z.string(), validation_url: z.string().optional(), config_page_url: z.string().optional(), config_page_preview_url: z.string().optional(), schema: z.string().optional(), return_type_ref: z.string().optional(), settings: settings.optional() })
    .strict(),
  flow_trigger: z.object({ ...base, handle, schema: z.string().optional(), settings: settings.optional() }).strict(),
  flow_template: z
    .object({
      ...base,
      handle,
      description: z.string().max(1024),
      template: z.object({ categories: z.array(z.string()).min(1), module: z.string(), require_app: z.boolean().optional(), discoverable: z.boolean().optional(), allow_one_click_activate: z.boolean().optional(), enabled: z.boolean().optional() }).strict(),
    })
    .strict(),
} as const;

/**
 * An extension file's extensions, each merged with the file's top-level keys as the CLI's loader merges them
 * (the unified format: `api_version`, `[settings]` and `[[extensions]]`); the older one-extension format is the
 * file itself.
 */
function extensionsOf(file: Record<string, unknown>): Record<string, unknown>[] {
  if (!Array.isArray(file.extensions)) return [file];
  const { extensions, ...shared } = file;
  return (extensions as Record<string, unknown>[]).map((e) => ({ ...shared, ...e }));
}

function extensionErrors(file: Record<string, unknown>): string[] {
  return extensionsOf(file).flatMap((extension) => {
    const schema = EXTENSION_BY_TYPE[extension.type as keyof typeof EXTENSION_BY_TYPE];
    if (!schema) return [`type ${String(extension.type)} is not one this test knows`];
    const parsed = schema.safeParse(extension);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  });
}

const EXTENSION_FILES = fs
  .readdirSync(path.join(ROOT, "extensions"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => path.join("extensions", d.name, "shopify.extension.toml"));

describe("shopify.app.toml follows Shopify's app configuration format", () => {
  it("every key is one Shopify documents, with a value of its type", () => {
    const parsed = APP_CONFIGURATION.safeParse(read("shopify.app.toml"));
    expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([]);
  });

  it("a misspelt key, a subscription without its topics, a relative redirect URL, an app proxy without write_app_proxy are each refused (the check is real)", () => {
    const app = read("shopify.app.toml");
    const webhooks = app.webhooks as { subscriptions: Record<string, unknown>[] };
    expect(APP_CONFIGURATION.safeParse({ ...app, embeded: true }).success).toBe(false);
    expect(APP_CONFIGURATION.safeParse({ ...app, webhooks: { ...webhooks, subscriptions: [{ topic: ["orders/create"], uri: "/webhooks/orders/create" }] } }).success).toBe(false);
    expect(APP_CONFIGURATION.safeParse({ ...app, auth: { redirect_urls: ["/auth/callback"] } }).success).toBe(false);
    const scopes = (app.access_scopes as { scopes: string }).scopes;
    expect(APP_CONFIGURATION.safeParse({ ...app, access_scopes: { scopes: scopes.replace(",write_app_proxy", "") } }).success).toBe(false);
  });
});

describe("every extension's toml follows Shopify's extension format", () => {
  it("finds every extension directory's toml", () => {
    expect(EXTENSION_FILES.length).toBeGreaterThanOrEqual(15);
    for (const file of EXTENSION_FILES) expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true);
  });

  it.each(EXTENSION_FILES)("%s: every key is one the CLI reads for its type, with a value of its type", (file) => {
    expect(extensionErrors(read(file))).toEqual([]);
  });

  it("a misspelt key in an extension, a function without a target, an export in camelCase are each refused (the check is real)", () => {
    const action = read("extensions/flow-action-block-phone/shopify.extension.toml");
    const [first] = action.extensions as Record<string, unknown>[];
    expect(extensionErrors({ ...action, extensions: [{ ...first, runtime_uri: first.runtime_url }] })).not.toEqual([]);
    const fn = read("extensions/cod-payment-customization/shopify.extension.toml");
    const [codFunction] = fn.extensions as Record<string, unknown>[];
    expect(extensionErrors({ ...fn, extensions: [{ ...codFunction, targeting: [] }] })).not.toEqual([]);
    const target = (codFunction.targeting as Record<string, unknown>[])[0];
    expect(extensionErrors({ ...fn, extensions: [{ ...codFunction, targeting: [{ ...target, export: "cartPaymentMethodsTransformRun" }] }] })).not.toEqual([]);
  });
});
