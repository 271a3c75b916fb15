import type { EnforcementState } from "~/enforcement/payment-customization.server";
import { PAUSE_RESUME, PAUSE_WHY, shopperView } from "~/enforcement/messages";

/** What the merchant reads about checkout enforcement (enforcementState). */
export function enforcementSummary(e: EnforcementState): { tone: "success" | "info" | "warning" | "critical"; title: string; body: string } {
  switch (e.state) {
    case "active":
      return {
        tone: "success",
        title: "Enforcement active",
        body: `Shopify's checkout hides cash on delivery from shoppers who have not verified their phone. Shoppers can verify: ${
          e.readyBy === "merchant" ? "you confirmed that your storefront shows the COD Verify button" : "the COD Verify button is on the live theme"
        }.`,
      };
    case "waiting_for_storefront":
      return {
        tone: "warning",
        title: e.updating ? "Waiting for the storefront: checkout is being updated" : "Waiting for the storefront",
        body: "Checkout keeps offering cash on delivery to everyone until shoppers can verify: add the COD Verify button to your live theme's product page, or confirm on Home that your storefront shows it (a headless or custom storefront).",
      };
    case "off":
      return { tone: "info", title: "Enforcement off", body: "Cash on delivery is offered at checkout to everyone; unverified orders are still re-checked and confirmed after purchase." };
    case "paused":
      return {
        tone: "warning",
        title: e.updating ? "Verification paused: checkout is being updated" : "Verification paused",
        body: `${PAUSE_WHY[e.why]} ${shopperView(e.codHidden)} ${PAUSE_RESUME[e.why]}`,
      };
    case "resuming":
      return { tone: "info", title: "Enforcement resuming", body: "Verification can run again; Shopify's checkout is being told to hide cash on delivery again (within a minute)." };
    case "not_set_up":
      return {
        tone: "warning",
        title: "Enforcement not set up yet",
        body: e.error ? `Shopify refused the payment customization: ${e.error}` : "Save the settings to create the payment customization in Shopify.",
      };
    case "error":
      return { tone: "critical", title: "Enforcement could not be updated", body: `Shopify answered: ${e.error}. Save again to retry.` };
  }
}
