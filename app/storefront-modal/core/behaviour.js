/**
 * What the modal measures of this page's session for the risk score (docs/risk.md, "Behaviour"): other
 * numbers asked a code for before this one, codes asked and never typed, the time from opening the sheet
 * to asking for a code and from the code's sending to typing it. Nothing else about the device; the
 * server counts them only as a small capped nudge, since the shopper's own browser writes them.
 */

export function newBehaviour() {
  return { openedAt: null, numbers: [], codesSent: 0, codesTyped: 0, sentAt: null, sent: null };
}

export function noteOpened(b, now) {
  if (b.openedAt === null) b.openedAt = now;
}

/** send-otp's `behaviour` for `phone` now. */
export function sendFields(b, phone, now) {
  var fields = {
    numbersTried: b.numbers.filter(function (p) { return p !== phone; }).length,
    codesAbandoned: Math.max(0, b.codesSent - b.codesTyped),
  };
  if (b.openedAt !== null) fields.msToRequest = Math.max(0, Math.round(now - b.openedAt));
  return fields;
}

/** A code went to `phone`; `fields` are the readings its send-otp carried (verify-otp carries them again). */
export function noteSent(b, phone, now, fields) {
  if (b.numbers.indexOf(phone) === -1) b.numbers.push(phone);
  b.codesSent += 1;
  b.sentAt = now;
  b.sent = fields || null;
}

/**
 * verify-otp's `behaviour` now: the readings of the code's own send, and the time to type it, so the score
 * that sets the proof's offer sees the whole journey, not only the typing.
 */
export function verifyFields(b, now) {
  if (b.sentAt === null) return {};
  var fields = {};
  if (b.sent) for (var k in b.sent) fields[k] = b.sent[k];
  fields.msToType = Math.max(0, Math.round(now - b.sentAt));
  return fields;
}

/** The code was typed right: every code asked so far was answered. */
export function noteTyped(b) {
  b.codesTyped = b.codesSent;
}
