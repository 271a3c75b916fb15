/**
 * The Shopify Flow triggers the app offers (one `flow_trigger` extension each under extensions/), written
 * once: each trigger's handle and the fields of its payload besides the order (every trigger carries an
 * `order_reference`, sent as `order_id`). tests/extension/flow-extensions.test.ts holds each extension's
 * toml to this list, so a field renamed here and not there fails before Flow would refuse it.
 * Field keys are letters and spaces only (Shopify CLI's rule for trigger fields).
 */
export type FlowFieldType = "single_line_text_field" | "number_decimal" | "boolean";

export const FLOW_TRIGGERS = {
  verified: { handle: "cod-order-verified", fields: { "payment mode": "single_line_text_field", "verified by": "single_line_text_field" } },
  unverified: { handle: "cod-order-unverified", fields: { "payment mode": "single_line_text_field", "status": "single_line_text_field" } },
  highRisk: { handle: "cod-order-high-risk", fields: { "risk score": "number_decimal", "risk reasons": "single_line_text_field" } },
  answered: { handle: "cod-order-shopper-answered", fields: { "answer": "single_line_text_field", "channel": "single_line_text_field" } },
  addressCorrected: { handle: "cod-address-corrected", fields: { "applied": "boolean", "digipin": "single_line_text_field", "map link": "single_line_text_field" } },
  deliveryFailed: { handle: "cod-delivery-failed", fields: { "cause": "single_line_text_field" } },
  deliveryChoice: { handle: "cod-delivery-choice", fields: { "choice": "single_line_text_field", "chosen date": "single_line_text_field", "cause": "single_line_text_field" } },
  outcomeLearnt: { handle: "cod-outcome-learnt", fields: { "outcome": "single_line_text_field", "reason": "single_line_text_field" } },
} as const satisfies Record<string, { handle: string; fields: Record<string, FlowFieldType> }>;

export type FlowTriggerName = keyof typeof FLOW_TRIGGERS;

/** A trigger's values, by its field keys (an unknown key does not compile). */
export type FlowTriggerValues<T extends FlowTriggerName> = {
  [K in keyof (typeof FLOW_TRIGGERS)[T]["fields"]]: (typeof FLOW_TRIGGERS)[T]["fields"][K] extends "number_decimal"
    ? number
    : (typeof FLOW_TRIGGERS)[T]["fields"][K] extends "boolean"
      ? boolean
      : string;
};
