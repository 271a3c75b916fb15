import type { PauseReason } from "./pause";

/** The admin's words for a pause (the banner on every page, Home, Settings): why, what shoppers see, how to resume. */
export const PAUSE_WHY: Record<PauseReason, string> = {
  otp_off: "Phone verification is switched off in Settings.",
  no_subscription: "The shop has no active plan.",
  allowance_used: "This month's verifications are used up.",
  usage_cap_reached: "This month's usage charges reached the cap you approved.",
};

export const PAUSE_RESUME: Record<PauseReason, string> = {
  otp_off: "Switch “Verify phone numbers with a code” back on in Settings to resume.",
  no_subscription: "Choose a plan on the Plans page to resume.",
  allowance_used: "Verification resumes by itself on the 1st of next month (UTC), or at once with a larger plan on the Plans page.",
  usage_cap_reached: "Verification resumes by itself on the 1st of next month (UTC), or at once with a larger plan on the Plans page.",
};

export function shopperView(codHidden: boolean): string {
  return codHidden
    ? "Cash on delivery stays hidden at checkout, and shoppers cannot get a code to unlock it: they can only pay another way."
    : "Shoppers are not asked for a code, and checkout offers cash on delivery to everyone.";
}
