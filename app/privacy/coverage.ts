/**
 * Every table of prisma/schema.prisma, declared: what personal data it holds (a shopper's phone, address,
 * IP or customer id; a merchant's staff details) and how customers/redact and shop/redact remove it.
 * tests/routes/privacy-coverage.test.ts reads the schema's models and fails when one is missing here,
 * when a field that looks personal is not declared, and when a real redact leaves a seeded row behind.
 * docs/privacy.md is the merchant's version of this table.
 */
export type ModelCoverage =
  | {
      personal: true;
      /** The fields that hold personal data. */
      holds: readonly string[];
      /** How customers/redact finds the customer's rows, or null when the rows are not a shopper's. */
      customerRedact: string | null;
      shopRedact: string;
      /** How long the rows (or the fields) are kept (app/privacy/retention.ts; docs/privacy.md says it to merchants). */
      retention: string;
      /**
       * Where customers/data_request's report shows the customer's rows: the report's section, and the key
       * each held field has there when it is not the field's own name. null for rows that are not a
       * shopper's, or (with `notReported`) rows the report holds by other means.
       */
      report: { section: string; as?: Readonly<Record<string, string>> } | null;
      notReported?: string;
      /** Scalar fields whose names look personal but are not (e.g. a setting about addresses). */
      notPersonal?: readonly string[];
    }
  | { personal: false; why: string; notPersonal?: readonly string[] };

const RECORDS = "the shop's record retention (Settings → Privacy, default 365 days)";

export const PRIVACY_COVERAGE: Record<string, ModelCoverage> = {
  Session: {
    personal: true,
    holds: ["userId", "firstName", "lastName", "email"],
    customerRedact: null, // the merchant's staff, never a shopper
    shopRedact: "deleted by shop domain (and at app/uninstalled)",
    retention: "while the app is installed (deleted at app/uninstalled)",
    report: null,
    notPersonal: ["emailVerified"],
  },
  // The store and its settings; one setting is a list of shoppers' phones (the Risk page's prepaid-only numbers).
  Shop: {
    personal: true,
    holds: ["riskPrepaidPhones"],
    customerRedact: "the customer's phones leave the prepaid-only list",
    shopRedact: "deleted by shop domain",
    retention: "until the merchant takes the number off the list, or a redact",
    report: { section: "lists", as: { riskPrepaidPhones: "phone" } },
    notPersonal: [
      "addressCorrectionTtlHours",
      "autoAddressCorrection",
      "digipinTarget", // where a shopper's DIGIPIN goes on the order: a setting, not a place
      "riskDeniedPostalCodes", // areas the merchant refuses, not a person's address
      "riskIpAttemptLimit",
      "riskIpOrderLimit",
      "riskPhoneCodeLimit",
      "riskPhoneOrderLimit",
    ],
  },
  VerifiedCustomer: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "the returning-customer window (Settings, default 90 days, at least a day)",
    report: { section: "verifiedMarks" },
  },
  Selection: {
    personal: true,
    holds: ["phone", "cartToken", "checkoutUrl", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: "30 days",
    report: { section: "selections" },
  },
  RateCounter: {
    personal: true,
    holds: ["key"],
    customerRedact: "by the counter keys that name the phone",
    shopRedact: "by the shop id in the key",
    retention: "until its window ends (10 minutes by default)",
    report: { section: "sendCounters" },
  },
  WebhookDelivery: { personal: false, why: "a delivery id, topic and shop domain" },
  Job: {
    personal: true,
    holds: ["payload"],
    customerRedact: "the jobs of the customer's orders",
    shopRedact: "by shop domain",
    retention: "30 days after it is done; 90 days after it failed for good",
    report: { section: "backgroundJobs" },
  },
  OtpChallenge: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "until the code expires (10 minutes by default), deleted within the hour after",
    report: { section: "pendingCodes" },
  },
  BlockedPhone: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "until the merchant unblocks it, or a redact",
    report: { section: "blocklistEntries" },
  },
  AddressCorrection: {
    personal: true,
    holds: ["phone", "before", "after", "digipin", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}; a link still valid stays`,
    report: { section: "addressCorrections" },
  },
  OrderConfirmation: {
    personal: true,
    holds: ["phone", "customerGid", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}; one still awaited stays`,
    report: { section: "orderConfirmations" },
  },
  MessageDelivery: {
    personal: true,
    holds: ["phone", "fallbackBody", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: RECORDS,
    report: { section: "messages" },
  },
  WhatsappReply: {
    personal: true,
    holds: ["sender", "orderGid"],
    customerRedact: "by order",
    shopRedact: "cascade from Shop",
    retention: RECORDS,
    report: { section: "whatsappReplies" },
  },
  // The ladder's rungs of a confirmation: the call's SID and the key pressed (the order's, through its confirmation).
  ConfirmationRung: {
    personal: true,
    holds: ["providerId", "detail"],
    customerRedact: "cascade from OrderConfirmation (by phone and by order)",
    shopRedact: "cascade from OrderConfirmation",
    retention: `with its confirmation: ${RECORDS}`,
    report: { section: "confirmationSteps" },
  },
  PersonAction: { personal: false, why: "which button the merchant pressed for a confirmation (deleted with it)" },
  // A number that asked not to be texted or called: it names the person, so redaction removes it.
  ContactOptOut: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "while the shop has the app (an opt-out is kept to be honoured), or a redact",
    report: { section: "contactOptOuts" },
  },
  // The keywords texted to the app's SMS number, kept to apply each once (app/sms/opt-out.server.ts).
  InboundKeyword: { personal: false, why: "Twilio's id of an inbound text and its keyword (STOP, START, HELP): no number, no shop; 30 days" },
  // ipHash: a keyed hash of the COD order's browser IP (never the IP), deleted with the record.
  OrderRecord: {
    personal: true,
    holds: ["phone", "orderGid", "ipHash", "riskScore", "riskBand", "riskReasons", "value", "postalCode"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from the order's date`,
    report: { section: "orders" },
  },
  OrderOutcome: {
    personal: true,
    holds: ["phone", "postalCode", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from when the outcome was learnt`,
    report: { section: "orderOutcomes" },
  },
  DeliveryReminder: {
    personal: true,
    holds: ["phone", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}`,
    report: { section: "deliveryReminders" },
  },
  // newPhone: the number a shopper gave the courier after a failed delivery.
  DeliveryRecovery: {
    personal: true,
    holds: ["phone", "newPhone", "digipin", "orderGid"],
    customerRedact: "by phone (either) and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}`,
    report: { section: "deliveryRecoveries" },
  },
  // Pay now after the order (app/orders/prepaid-offer.server.ts): the offer made to the order's phone.
  PrepaidOffer: {
    personal: true,
    holds: ["phone", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from the offer's date`,
    report: { section: "prepaidOffers" },
  },
  Experiment: { personal: false, why: "the merchant's holdout experiment: its share, period and planned size" },
  // The shopper's arm in the merchant's holdout experiment (app/experiment).
  ExperimentAssignment: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "while the shop has the app (not yet under the Privacy setting), or a redact",
    report: null,
    notReported: "not yet in the data-request report: the shopper's experiment group",
  },
  DailyStat: { personal: false, why: "counts per day (a dimension is a country, mode or reason, never a person)" },
  DataRequestReport: {
    personal: true,
    holds: ["customerId", "customerEmail", "customerPhone", "ordersRequested", "report"],
    customerRedact: "by Shopify customer id and by phone",
    shopRedact: "cascade from Shop",
    retention: "90 days",
    report: null,
    notReported: "it is the report itself: each request stores a new one from the records above",
  },
};

/**
 * Whether a scalar field's name looks like a phone, an address, an email, a customer id or an IP, in any
 * case (`riskPrepaidPhones` as well as `phone`). "ip" only as its own word (`ipHash`, `browserIP`), so
 * `shipping` is not an IP.
 */
export function looksPersonal(field: string): boolean {
  return /phone|email|address|customer|postal/i.test(field) || /(^ip|Ip|IP)($|[A-Z_])/.test(field);
}
