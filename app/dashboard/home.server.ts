import { z } from "zod";
import { countSince } from "~/db/daily-stats.server";
import { allowanceMonthStart, planOf } from "~/shared/plans";
import { adminShop, updateShop } from "~/settings/shop.server";
import { clock } from "~/utils/clock.server";
import { dashboardOf } from "./dashboard.server";
import { codNamesForm, confirmCodMethodNames, onboardingOf, sendTestCode } from "./onboarding.server";
import { parsePriceLines, priceLines, smsPricesOf } from "./prices";

/** The home page: the plan and its usage, the onboarding checklist and the 30-day dashboard. */
export async function loadHome(domain: string) {
  const shop = await adminShop(domain);
  const plan = planOf(shop);
  const [onboarding, dashboard, used] = await Promise.all([onboardingOf(shop), dashboardOf(shop), countSince(shop.id, "otp_verified", allowanceMonthStart(clock.now()))]);
  return {
    usage: { plan, used, allowance: plan?.monthlyVerifications ?? 0 },
    shopName: shop.name ?? shop.domain,
    onboarding,
    dashboard,
    priceText: priceLines(smsPricesOf(shop.smsPrices)),
  };
}

/** The home page's three small forms, told apart by `intent`. */
export const homeForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cod_names") }).merge(codNamesForm),
  z.object({ intent: z.literal("test_code"), phone: z.string().min(1, "Enter your phone number.").max(40) }),
  z.object({ intent: z.literal("prices"), prices: z.string().max(20_000) }),
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
    case "prices": {
      const parsed = parsePriceLines(form.prices);
      if (!parsed.ok) return { intent: form.intent, ok: false, message: `Lines ${parsed.badLines.join(", ")} are not "CC price" (e.g. "IN 0.0832").` };
      await updateShop(shop.domain, { smsPrices: JSON.stringify(parsed.prices) });
      return { intent: form.intent, ok: true, message: "Message prices saved." };
    }
  }
}
