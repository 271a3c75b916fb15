/**
 * An order's message log as the merchant reads it on the Orders page: every message the app sent about
 * the order (the WhatsApp question, the SMS link, answers, address links) with its last delivery state,
 * and every WhatsApp answer the shopper gave. Pure: the page renders it in the browser.
 */
export type MessageLogEntry =
  | { kind: "message"; at: string; channel: "sms" | "whatsapp"; purpose: string; status: string; errorCode: number | null }
  | { kind: "reply"; at: string; action: string; outcome: string | null };

const CHANNELS: Record<string, string> = { sms: "SMS", whatsapp: "WhatsApp" };
const PURPOSES: Record<string, string> = { order_confirmation: "confirmation", address_correction: "address link", otp: "code", delivery_reminder: "delivery reminder", delivery_recovery: "failed-delivery choices" };
const STATES: Record<string, string> = {
  accepted: "queued",
  scheduled: "queued",
  queued: "queued",
  sending: "sending",
  sent: "sent",
  delivered: "delivered",
  read: "read",
  undelivered: "failed",
  failed: "failed",
  canceled: "cancelled",
};
const ACTIONS: Record<string, string> = { confirm: "Confirm", cancel: "Cancel", change_address: "Change address", other: "a message" };

/** One line per entry: "WhatsApp confirmation: read", "SMS confirmation: failed (30008)", "Reply: Confirm". */
export function messageLogLine(entry: MessageLogEntry): string {
  if (entry.kind === "reply") return `Reply: ${ACTIONS[entry.action] ?? entry.action}`;
  const state = STATES[entry.status] ?? entry.status;
  return `${CHANNELS[entry.channel] ?? entry.channel} ${PURPOSES[entry.purpose] ?? entry.purpose}: ${state}${entry.errorCode ? ` (${entry.errorCode})` : ""}`;
}

export function isFailure(entry: MessageLogEntry): boolean {
  return entry.kind === "message" && STATES[entry.status] === "failed";
}
