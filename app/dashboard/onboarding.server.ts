import { z } from "zod";
import { env } from "~/core/env.server";
import { currentEnforcementState, syncPaymentCustomization, type EnforcementState } from "~/enforcement/payment-customization.server";
import { PAUSE_WHY, shopperView } from "~/enforcement/messages";
import { codMethodNameList, isCodMethodName } from "~/core/settings/cod-methods";
import { SETTINGS_LIMITS } from "~/core/settings/limits";
import { adminShop, updateShop, type Shop } from "~/core/settings/shop.server";
import { parseApiPhone, normalizePhone } from "~/shared/phone";
import { planOf } from "~/shared/plans";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { RECENT_ORDER_GATEWAYS } from "~/core/shopify/operations";
import { APP_BLOCK_HANDLE, noteThemeCheck, storefrontBlock, storefrontReadiness } from "~/enforcement/storefront-readiness.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import { sendSms } from "~/sms/sms.server";
import { clock } from "~/core/utils/clock.server";
import { randomNumericCode } from "~/core/utils/crypto.server";

export { APP_BLOCK_HANDLE, templateHasAppBlock } from "~/enforcement/storefront-readiness.server";

export type StepId = "storefront_block" | "cod_names" | "plan" | "enforcement" | "test_code";
/**
 * `next`: what finishes a step that is not done, where the checklist shows it: done in place (`turn_on`),
 * or the page that can (`plans`, `settings`: codes are off); null when nothing but time or another step does.
 */
export type Step = { id: StepId; done: boolean; detail: string; next?: "turn_on" | "plans" | "settings" | null };
export type Onboarding = {
  steps: Step[];
  done: number;
  /** Where the merchant adds the block: the theme editor, on the product template, with the block picked. */
  themeEditorUrl: string;
  /** Cash-on-delivery gateway names of recent orders, most used first (to suggest the COD method names). */
  suggestedNames: string[];
  codMethodNames: string[];
  /** Whether shoppers can verify on the storefront, and what says so: checkout hides COD only then. */
  storefrontReadyBy: "theme" | "merchant" | null;
};

type GatewayReply = { orders: { nodes: { paymentGatewayNames: string[] }[] } };

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
export async function onboardingOf(given: Shop): Promise<Onboarding> {
  let shop = given;
  const [block, suggestedNames] = await Promise.all([storefrontBlock(shop.domain), shop.codMethodNamesConfirmedAt ? Promise.resolve([]) : recentGatewayNames(shop.domain)]);
  // What the theme shows decides whether checkout may hide COD (enforcement waits for the storefront).
  if (await noteThemeCheck(shop, block)) {
    shop = await adminShop(shop.domain);
    await requestEnforcementSync(shop.domain, "storefront_checked");
  }
  const readiness = storefrontReadiness(shop);
  const plan = planOf(shop);
  const enforcement = await currentEnforcementState(shop);
  const names = codMethodNameList(shop.codMethodNames);
  const steps: Step[] = [
    {
      id: "storefront_block",
      done: (block?.added ?? false) || readiness === "merchant",
      detail: block?.added
        ? `On the live theme (${block.theme}).`
        : readiness === "merchant"
          ? "You confirmed that your storefront shows the button."
          : block === null
            ? "Shopify did not answer; try again in a moment."
            : "Not on the live theme's product page yet. Until shoppers can verify, checkout keeps offering cash on delivery to everyone.",
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
      next:
        enforcement.state === "off" || enforcement.state === "not_set_up" || enforcement.state === "error"
          ? "turn_on"
          : enforcement.state === "paused"
            ? enforcement.why === "otp_off"
              ? "settings"
              : "plans"
            : null,
      detail:
        enforcement.state === "active"
          ? `Cash on delivery is hidden at checkout until the phone is verified (${enforcement.readyBy === "merchant" ? "you confirmed the storefront shows the button" : "the button is on the live theme"}).`
          : enforcement.state === "off"
            ? "Off: checkout offers cash on delivery to every shopper, verified or not."
            : enforcement.state === "waiting_for_storefront"
              ? "Waits for the storefront: once the button is on the live theme (or you confirm it is on your storefront), checkout hides cash on delivery from unverified shoppers."
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
  return { steps, done: steps.filter((s) => s.done).length, themeEditorUrl: themeEditorUrl(shop.domain), suggestedNames, codMethodNames: names, storefrontReadyBy: readiness };
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

/**
 * The checklist's enforcement step, done where it is shown: checkout hiding COD is turned on and Shopify's
 * payment customization saved before the answer (as a settings save does), so Home ticks the step, or
 * says what still stands in its way, without a trip to Settings.
 */
export async function turnOnEnforcement(shop: Shop): Promise<EnforcementState> {
  const saved = shop.enforceAtCheckout ? shop : await updateShop(shop.domain, { enforceAtCheckout: true });
  // Shopify not answering leaves a durable retry behind, as Settings does.
  if (!(await syncPaymentCustomization(saved)).ok) await requestEnforcementSync(shop.domain, "settings_saved");
  return currentEnforcementState(await adminShop(shop.domain));
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
