import type { ReactNode } from "react";
import { useNotice } from "./app-bridge";

/**
 * "You are on the Pro plan." once, back from Shopify's approval page: a toast in Shopify's admin, a
 * success banner elsewhere. `plan`: the plan the approved charge made the shop's (planApprovedBy).
 */
export function usePlanApprovedNotice(plan: { id: string; label: string } | null, chargeId: string | null): ReactNode {
  return useNotice(plan && { message: `You are on the ${plan.label} plan.` }, plan && `${plan.id}:${chargeId}`);
}
