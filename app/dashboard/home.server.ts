import { unusualUse } from "~/otp/unusual-use.server";
import { getExampleNumber, isSupportedCountry, type CountryCode } from "libphonenumber-js/min";
import mobileExamples from "libphonenumber-js/mobile/examples";
import { z } from "zod";
import { planUsage, type PlanUsage } from "~/billing/plans.server";
import { adminShop } from "~/core/settings/shop.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import { confirmStorefrontReady } from "~/enforcement/storefront-readiness.server";
import { dashboardOf } from "./dashboard.server";
import { countryName } from "./locale";
import { PAUSE_WHY } from "~/enforcement/messages";
import type { EnforcementState } from "~/enforcement/payment-customization.server";
import { codNamesForm, confirmCodMethodNames, onboardingOf, sendTestCode, turnOnEnforcement } from "./onboarding.server";
import { experimentHomeLine } from "~/experiment/settings-page.server";

/**
 * What the merchant pays and what the plan covers, for Home's plan card. The app's own cost of sending
 * texts is not here: the plan's price includes them, so it is not the merchant's figure.
 */
export type PlanBill = PlanUsage & {
  /**
   * Usage charges this billing period, beyond the plan's allowance (Shopify usage records under the
   * cap the merchant approved). null while the shop has no usage pricing; the usage-charges work
   * (issue 27, item 1) fills it, and Home shows it beside the plan's price.
   */
  usageCharges: { amount: number; cap: number } | null;
};

/** The home page: the plan and what it costs, the onboarding checklist and the 30-day dashboard. */
export async function loadHome(domain: string, locale: string) {
  const shop = await adminShop(domain);
  const [onboarding, dashboard, usage, experiment, unusual] = await Promise.all([onboardingOf(shop), dashboardOf(shop), planUsage(shop), experimentHomeLine(shop), unusualUse(shop)]);
  const bill: PlanBill = { ...usage, usageCharges: null };
  return {
    bill,
    shopName: shop.name ?? shop.domain,
    onboarding,
    examplePhone: exampleMobile(shop.country),
    // The holdout experiment's one sentence (app/experiment), when the shop ran one.
    experiment,
    // Where unusual use of codes comes from (app/otp/unusual-use.server.ts), on every plan.
    unusualUse: unusual,
    dashboard: { ...dashboard, countries: dashboard.countries.map((c) => ({ ...c, name: countryName(c.country, locale) })) },
  };
}

/** A made-up mobile number of the shop's country (E.164), the test-code field's example; a US one where the country is unknown. */
export function exampleMobile(country: string | null | undefined): string {
  const region = country && isSupportedCountry(country) ? (country as CountryCode) : "US";
  return getExampleNumber(region, mobileExamples)?.number ?? "+12015550123";
}

/** The home page's two small forms, told apart by `intent`. */
export const homeForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cod_names") }).merge(codNamesForm),
  z.object({ intent: z.literal("test_code"), phone: z.string().min(1, "Enter your phone number.").max(40) }),
  // The merchant says shoppers can verify on the storefront (a headless or custom storefront the theme check cannot see).
  z.object({ intent: z.literal("storefront_ready") }),
  // The checklist's enforcement step, turned on in place.
  z.object({ intent: z.literal("enforcement") }),
]);
export type HomeForm = z.infer<typeof homeForm>;

export type HomeActionResult =
  | { intent: HomeForm["intent"]; ok: true; message: string }
  | { intent: HomeForm["intent"] | null; ok: false; message: string };

export async function homeAction(domain: string, form: HomeForm): Promise<HomeActionResult> {
  const shop = await adminShop(domain);
  switch (form.intent) {
    case "cod_names": {
      await confirmCodMethodNames(shop, form.names);
      return { intent: form.intent, ok: true, message: `Cash-on-delivery methods confirmed: ${form.names.join(", ")}.` };
    }
    case "storefront_ready": {
      await confirmStorefrontReady(shop.domain);
      await requestEnforcementSync(shop.domain, "storefront_confirmed");
      return { intent: form.intent, ok: true, message: "Noted: checkout now hides cash on delivery from shoppers who have not verified their phone (within a minute)." };
    }
    case "enforcement":
      return { intent: form.intent, ...enforcementAnswer(await turnOnEnforcement(shop)) };
    case "test_code": {
      const sent = await sendTestCode(shop, form.phone);
      if (sent.ok) return { intent: form.intent, ok: true, message: `A test code was sent to ${sent.to}.` };
      const why = {
        invalid_phone: "Enter the number in international format: + and the country code.",
        phone_unreachable: "The provider cannot reach this number by text message.",
        sms_unavailable: "The text-message provider did not answer; try again in a moment.",
      }[sent.code];
      return { intent: form.intent, ok: false, message: why };
    }
  }
}

/** What Home says after the enforcement step was turned on in place: done, or what still stands in its way. */
function enforcementAnswer(state: EnforcementState): { ok: true; message: string } | { ok: false; message: string } {
  switch (state.state) {
    case "active":
      return { ok: true, message: "Checkout now hides cash on delivery until the shopper's phone is verified." };
    case "waiting_for_storefront":
      return { ok: true, message: "Turned on: checkout hides cash on delivery once your storefront shows the button (the first step)." };
    case "paused":
      return { ok: true, message: `Turned on, but verification is paused: ${PAUSE_WHY[state.why]}` };
    case "resuming":
      return { ok: true, message: "Turned on: Shopify's checkout is being updated (within a minute)." };
    case "off":
      return { ok: false, message: "It could not be turned on; try again, or use Settings." };
    case "not_set_up":
    case "error":
      return { ok: false, message: `Shopify did not save it (${state.error ?? "no answer"}); it is tried again within a minute.` };
  }
}
