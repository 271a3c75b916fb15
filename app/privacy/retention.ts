/**
 * How long each kind of personal record is kept (docs/privacy.md lists them for merchants). The
 * retention job (retention.server.ts) deletes what is past its period; redact deletes at once.
 */
const DAY_MS = 86_400_000;

/** Unlinked and linked payment-mode selections: proofs live 2 h and orders link within a day; a month is ample. */
export const SELECTION_RETENTION_DAYS = 30;
/** Data request reports (the merchant's copy of what a shopper asked for), then deleted. */
export const DATA_REQUEST_RETENTION_DAYS = 90;
/** The keywords texted to the app's SMS number (STOP, START, HELP: no number kept), kept to recognise a replay. */
export const INBOUND_KEYWORD_RETENTION_DAYS = 30;
/**
 * A number's request not to be texted or called (STOP, "no calls"), counted from the request: two years, longer
 * than any record that could lead the app to contact the number again (the record retention is a year at most),
 * so an opt-out is honoured for as long as anything about the number is kept. START ends it sooner.
 */
export const OPT_OUT_RETENTION_DAYS = 730;
/**
 * A staff member's online session lives as long as its access token (Shopify gives it a day); the shop's offline
 * session as long as the app is installed, or until its token can no longer be refreshed. Sessions of a shop that
 * uninstalled are deleted at app/uninstalled; this many days after the uninstall the retention job deletes any
 * left (a missed or failed webhook), before shop/redact (48 hours after) deletes the rest of the shop's data.
 */
export const UNINSTALLED_SESSION_DAYS = 1;
/** Message records (texts and calls), the delivery reminders and recoveries, address corrections, confirmations after purchase, order records, order outcomes and experiment groups: the shop's setting. */
export const RECORD_RETENTION_DEFAULT_DAYS = 365;

/** The retention job's steps, one per kind of record it deletes (its summary counts each): app/privacy/coverage.ts names the step that keeps each table to its period. */
export const RETENTION_STEPS = [
  "pendingCodes",
  "rateCounters",
  "dataRequests",
  "selections",
  "verifiedMarks",
  "messages",
  "addressCorrections",
  "orderConfirmations",
  "orderRecords",
  "orderOutcomes",
  "prepaidOffers",
  "deliveries",
  "experimentGroups",
  "optOuts",
  "inboundKeywords",
  "sessions",
  "blocklist",
] as const;
export type RetentionStep = (typeof RETENTION_STEPS)[number];

export type RetentionShop = { returningSkipDays: number; recordRetentionDays: number };

/** The instants before which a shop's records are deleted, at `now`. */
export function retentionCutoffs(shop: RetentionShop, now: Date) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  return {
    selections: ago(SELECTION_RETENTION_DAYS),
    // A verified mark is only read within the returning-customer window (at least a day: proofs and
    // confirmations read the mark of a number verified minutes before).
    verifiedMarks: ago(Math.max(1, shop.returningSkipDays)),
    records: ago(shop.recordRetentionDays),
    optOuts: ago(OPT_OUT_RETENTION_DAYS),
  };
}
