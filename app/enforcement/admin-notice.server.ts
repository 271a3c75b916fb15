import { adminShop } from "~/settings/shop.server";
import { enforcementState } from "./payment-customization.server";
import type { AllowanceLevel, PauseReason } from "./pause";
import { verificationStatus } from "./pause.server";

/** What the banner on every admin page says (app/admin/verification-banner.tsx): null when all is well. */
export type VerificationNotice =
  | { kind: "paused"; why: PauseReason; codHidden: boolean; updating: boolean; used: number; allowance: number }
  | { kind: "near_allowance"; used: number; allowance: number; keepCodHiddenWhenPaused: boolean }
  | null;

export async function verificationNotice(domain: string): Promise<VerificationNotice> {
  const shop = await adminShop(domain);
  const status = await verificationStatus(shop);
  const { used, allowance } = status;
  if (status.pause) {
    const state = enforcementState(shop, status.pause);
    // With enforcement off in Settings nothing was hidden in the first place.
    const { codHidden, updating } = state.state === "paused" ? state : { codHidden: false, updating: false };
    return { kind: "paused", why: status.pause, codHidden, updating, used, allowance };
  }
  const level: AllowanceLevel = status.level;
  return level === "near" ? { kind: "near_allowance", used, allowance, keepCodHiddenWhenPaused: shop.keepCodHiddenWhenPaused } : null;
}
