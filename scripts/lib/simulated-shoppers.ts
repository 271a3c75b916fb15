/**
 * The simulated shoppers of the risk generator (scripts/risk-eval.ts), whose mix the experiment's
 * simulation (scripts/experiment-eval.ts) follows: good repeat buyers, repeat refusers, one-time buyers
 * and bursts of new numbers.
 */
export type ShopperKind = "good_repeat" | "refuser" | "one_time" | "burst";

/** How often each kind's COD orders fail, unverified (assumptions). */
export const FAIL_RATE: Record<ShopperKind, number> = { good_repeat: 0.04, refuser: 0.7, one_time: 0.15, burst: 0.85 };
