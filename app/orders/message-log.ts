/**
 * An order's message log as the merchant reads it on the Orders page: every message the app sent about
 * the order (the WhatsApp question, the SMS link, answers, address links) with its last delivery state,
 * and every WhatsApp answer the shopper gave. Pure: the page renders it in the browser.
 */
export type MessageLogEntry =
  | { kind: "message"; at: string; channel: "sms" | "whatsapp" | "voice"; purpose: string; status: string; errorCode: number | null }
  | { kind: "reply"; at: string; action: string; outcome: string | null }
  /** A rung of the confirmation ladder: when it came, and how it ended (state, and the key pressed or why it was skipped). */
  | { kind: "rung"; at: string; rung: string; state: string; detail: string | null };

const CHANNELS: Record<string, string> = { sms: "SMS", whatsapp: "WhatsApp", voice: "Call" };
const RUNGS: Record<string, string> = { whatsapp: "WhatsApp", sms: "SMS link", voice: "Call", person: "Needs a person" };
const RUNG_STATES: Record<string, string> = {
  due: "due",
  sent: "sent, waiting for an answer",
  answered: "answered",
  skipped: "skipped",
  no_answer: "no answer",
  busy: "busy",
  voicemail: "voicemail",
  failed: "failed",
  queued: "in the queue",
};
const KEYS: Record<string, string> = { "1": "1 (confirm)", "2": "2 (cancel)", "3": "3 (change address)", "9": "9 (no more calls)" };
const PURPOSES: Record<string, string> = { order_confirmation: "confirmation", address_correction: "address link", otp: "code" };
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
  // A call's states (Twilio's CallStatus).
  initiated: "calling",
  ringing: "ringing",
  "in-progress": "in progress",
  completed: "answered",
  busy: "busy",
  "no-answer": "no answer",
};
const ACTIONS: Record<string, string> = { confirm: "Confirm", cancel: "Cancel", change_address: "Change address", other: "a message" };

/** One line per entry: "WhatsApp confirmation: read", "SMS confirmation: failed (30008)", "Reply: Confirm". */
export function messageLogLine(entry: MessageLogEntry): string {
  if (entry.kind === "reply") return `Reply: ${ACTIONS[entry.action] ?? entry.action}`;
  if (entry.kind === "rung") {
    const detail = entry.state === "answered" && entry.detail ? `: pressed ${KEYS[entry.detail] ?? entry.detail}` : entry.detail && entry.state === "skipped" ? ` (${entry.detail.replace(/_/g, " ")})` : "";
    return `Ladder, ${RUNGS[entry.rung] ?? entry.rung}: ${RUNG_STATES[entry.state] ?? entry.state}${detail}`;
  }
  const state = STATES[entry.status] ?? entry.status;
  return `${CHANNELS[entry.channel] ?? entry.channel} ${PURPOSES[entry.purpose] ?? entry.purpose}: ${state}${entry.errorCode ? ` (${entry.errorCode})` : ""}`;
}

export function isFailure(entry: MessageLogEntry): boolean {
  if (entry.kind === "rung") return entry.state === "failed";
  return entry.kind === "message" && (STATES[entry.status] === "failed" || (entry.channel === "voice" && ["busy", "no-answer"].includes(entry.status)));
}
