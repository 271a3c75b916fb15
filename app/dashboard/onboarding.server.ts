import { z } from "zod";
import { env } from "~/core/env.server";
import { currentEnforcementState, syncPaymentCustomization } from "~/enforcement/payment-customization.server";
import { PAUSE_WHY, shopperView } from "~/enforcement/messages";
import { codMethodNameList, isCodMethodName } from "~/core/settings/cod-methods";
import { SETTINGS_LIMITS } from "~/core/settings/limits";
import { updateShop, type Shop } from "~/core/settings/shop.server";
import { parseApiPhone, normalizePhone } from "~/shared/phone";
import { planOf } from "~/shared/plans";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { RECENT_ORDER_GATEWAYS, THEME_APP_BLOCKS } from "~/core/shopify/operations";
import { sendSms } from "~/sms/sms.server";
import { clock } from "~/core/utils/clock.server";
import { randomNumericCode } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";

/** The app's block in the theme app extension (extensions/cod-verify/blocks/cod-button.liquid). */
export const APP_BLOCK_HANDLE = "cod-button";

export type StepId = "storefront_block" | "cod_names" | "plan" | "enforcement" | "test_code";
export type Step = { id: StepId; done: boolean; detail: string };
export type Onboarding = {
  steps: Step[];
  done: number;
  /** Where the merchant adds the block: the theme editor, on the product template, with the block picked. */
  themeEditorUrl: string;
  /** Cash-on-delivery gateway names of recent orders, most used first (to suggest the COD method names). */
  suggestedNames: string[];
  codMethodNames: string[];
};

type ThemeReply = { themes: { nodes: { name: string; files: { nodes: { filename: string; body: { content?: string } | null }[] } }[] } };
type GatewayReply = { orders: { nodes: { paymentGatewayNames: string[] }[] } };

/** Whether a JSON template holds the app's block (`shopify://apps/<app>/blocks/cod-button/<uuid>`), not disabled. */
export function templateHasAppBlock(content: string): boolean {
  const blockType = new RegExp(`"type"\\s*:\\s*"shopify://apps/[^"/]+/blocks/${APP_BLOCK_HANDLE}/[^"]+"(?:\\s*,\\s*"disabled"\\s*:\\s*(true|false))?`, "g");
  for (const m of content.matchAll(blockType)) if (m[1] !== "true") return true;
  return false;
}

/** The block's state in the live theme; null when Shopify could not be asked. */
async function storefrontBlock(shop: string): Promise<{ added: boolean; theme: string } | null> {
  const result = await shopifyGraphql<ThemeReply>("admin", shop, THEME_APP_BLOCKS);
  if (!result.ok) {
    log.warn("onboarding: the theme could not be read", { shop, cause: result.cause });
    return null;
  }
  const theme = result.data.themes?.nodes?.[0];
  if (!theme) return { added: false, theme: "" };
  return { added: theme.files.nodes.some((f) => templateHasAppBlock(f.body?.content ?? "")), theme: theme.name };
}

/** The cash-on-delivery gateway names of the latest 50 orders, most used first (a card gateway is never one to confirm). */
async function recentGatewayNames(shop: string): Promise<string[]> {
  const result = await shopifyGraphql<GatewayReply>("admin", shop, RECENT_ORDER_GATEWAYS);
  if (!result.ok) return [];
  const counts = new Map<string, number>();
  for (const order of result.data.orders?.nodes ?? []) for (const name of (order.paymentGatewayNames ?? []).filter(isCodMethodName)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

export function themeEditorUrl(shop: string): string {
  const params = new URLSearchParams({ template: "product", addAppBlockId: `${env.SHOPIFY_API_KEY}/${APP_BLOCK_HANDLE}`, target: "mainSection" });
  return `https://${shop}/admin/themes/current/editor?${params}`;
}

/** The checklist on the home page, read from the shop row and (two calls at once) from Shopify. */
export async function onboardingOf(shop: Shop): Promise<Onboarding> {
  const [block, suggestedNames] = await Promise.all([storefrontBlock(shop.domain), shop.codMethodNamesConfirmedAt ? Promise.resolve([]) : recentGatewayNames(shop.domain)]);
  const plan = planOf(shop);
  const enforcement = await currentEnforcementState(shop);
  const names = codMethodNameList(shop.codMethodNames);
  const steps: Step[] = [
    {
      id: "storefront_block",
      done: block?.added ?? false,
      detail: block === null ? "Shopify did not answer; try again in a moment." : block.added ? `On the live theme (${block.theme}).` : "Not on the live theme's product page yet.",
    },
    {
      id: "cod_names",
      done: shop.codMethodNamesConfirmedAt !== null,
      detail: shop.codMethodNamesConfirmedAt ? `Confirmed: ${names.join(", ")}.` : `Now: ${names.join(", ") || "none"}.`,
    },
    { id: "plan", done: plan !== null, detail: plan ? `${plan.label}.` : "No plan chosen yet: the storefront sends no codes." },
    {
      id: "enforcement",
      done: enforcement.state === "active",
      detail:
        enforcement.state === "active"
          ? "Cash on delivery is hidden at checkout until the phone is verified."
          : enforcement.state === "off"
            ? "Turned off in Settings."
            : enforcement.state === "paused"
              ? `Paused: ${PAUSE_WHY[enforcement.why]} ${shopperView(enforcement.codHidden)}`
              : enforcement.state === "resuming"
                ? "Being switched back on in Shopify (within a minute)."
                : enforcement.error ?? "Not set up yet.",
    },
    {
      id: "test_code",
      done: shop.testCodeSentAt !== null,
      detail: shop.testCodeSentAt ? `Sent ${shop.testCodeSentAt.toISOString().slice(0, 16).replace("T", " ")} UTC.` : "Send one to your own phone to see what shoppers get.",
    },
  ];
  return { steps, done: steps.filter((s) => s.done).length, themeEditorUrl: themeEditorUrl(shop.domain), suggestedNames, codMethodNames: names };
}

export const codNamesForm = z.object({
  names: z
    .string()
    .max(SETTINGS_LIMITS.codMethodNamesMax * (SETTINGS_LIMITS.codMethodNameMaxLength + 2))
    .transform((text) => codMethodNameList(text))
    .refine(
      (names) => names.length > 0 && names.length <= SETTINGS_LIMITS.codMethodNamesMax && names.every((n) => n.length <= SETTINGS_LIMITS.codMethodNameMaxLength),
      `Give 1 to ${SETTINGS_LIMITS.codMethodNamesMax} names, one a line, each up to ${SETTINGS_LIMITS.codMethodNameMaxLength} characters.`,
    ),
});

/** The merchant confirms which payment methods are cash on delivery; the checkout function follows at once. */
export async function confirmCodMethodNames(shop: Shop, names: string[]) {
  const saved = await updateShop(shop.domain, { codMethodNames: names.join("\n"), codMethodNamesConfirmedAt: clock.now() });
  await syncPaymentCustomization(saved);
  return { ok: true as const, names };
}

export type TestCodeOutcome = { ok: true; to: string } | { ok: false; code: "invalid_phone" | "phone_unreachable" | "sms_unavailable" };

/**
 * A test code to the merchant's own phone through the real provider, as shoppers get it. It is not a
 * verification: nothing to confirm, not counted in the plan's allowance.
 */
export async function sendTestCode(shop: Shop, rawPhone: string): Promise<TestCodeOutcome> {
  const phone = parseApiPhone(normalizePhone(rawPhone) ?? rawPhone);
  if (!phone) return { ok: false, code: "invalid_phone" };
  const code = randomNumericCode(6);
  const result = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: phone,
    body: `${code} is a test code from COD Verify for ${shop.name ?? shop.domain}. Shoppers get their codes like this.`,
    channel: "sms",
    purpose: "merchant_test",
  });
  if (!result.ok) return { ok: false, code: result.code };
  await updateShop(shop.domain, { testCodeSentAt: clock.now() });
  return { ok: true, to: phone };
}
