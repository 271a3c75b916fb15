import { PLANS } from "~/shared/plans";
import { pauseReason, verificationsAllowed, type PauseShop } from "./pause";

// send-otp's one-step decision compares the month's verifications with verificationsAllowed in the
// database; it must pause exactly where pauseReason does.
describe("verificationsAllowed", () => {
  const shops: PauseShop[] = [];
  for (const plan of PLANS) {
    for (const usageChargesEnabled of [false, true]) {
      for (const usageChargesRefused of [null, "cap_reached"]) {
        shops.push({ otpEnabled: true, subscriptionStatus: "active", subscriptionPlan: plan.name, usageChargesEnabled, usageChargesRefused });
      }
    }
  }
  shops.push({ otpEnabled: false, subscriptionStatus: "active", subscriptionPlan: PLANS[1].name, usageChargesEnabled: false, usageChargesRefused: null });
  shops.push({ otpEnabled: true, subscriptionStatus: "cancelled", subscriptionPlan: null, usageChargesEnabled: false, usageChargesRefused: null });

  it.each(shops.map((s) => [JSON.stringify(s), s] as const))("pauses where pauseReason does: %s", (_, shop) => {
    const allowed = verificationsAllowed(shop);
    for (const used of [0, 1, allowed - 1, allowed, allowed + 1, allowed + 1000].filter((n) => n >= 0)) {
      expect(pauseReason(shop, used) === null, `used ${used}`).toBe(used < allowed);
    }
  });
});
