import type { RetentionStep } from "./retention";

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
       * What deletes the rows once past that period: a step of the retention job (`privacy.retention`,
       * app/privacy/retention.server.ts), the hourly housekeeping job, the deletion of the row they belong to,
       * or (`byMerchant`) nothing but the merchant, app/uninstalled and the redact webhooks, and why.
       */
      enforcedBy: { job: "privacy.retention"; step: RetentionStep } | { job: "housekeeping.prune" } | { cascadeFrom: string } | { byMerchant: string };
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
const RJ = (step: RetentionStep) => ({ job: "privacy.retention", step }) as const;

export const PRIVACY_COVERAGE: Record<string, ModelCoverage> = {
  Session: {
    personal: true,
    holds: ["userId", "firstName", "lastName", "email"],
    customerRedact: null, // the merchant's staff, never a shopper
    shopRedact: "deleted by shop domain (and at app/uninstalled)",
    retention:
      "a staff member's online session until its token ends (a day); the shop's offline session while the app is installed and its token can be refreshed; deleted at app/uninstalled, and by the retention job a day after an uninstall at the latest",
    enforcedBy: RJ("sessions"),
    report: null,
    notPersonal: ["emailVerified"],
  },
  // The store and its settings; one setting is a list of shoppers' phones (the Risk page's prepaid-only numbers).
  Shop: {
    personal: true,
    holds: ["riskPrepaidPhones"],
    customerRedact: "the customer's phones leave the prepaid-only list",
    shopRedact: "deleted by shop domain",
    retention: "until the merchant takes the number off the list, or a redact, or shop/redact after an uninstall",
    enforcedBy: {
      byMerchant:
        "a list the merchant keeps on the Risk page, their standing decision about a number as a block without an end is; the Risk page shows it whole, customers/redact takes the shopper's numbers off, shop/redact deletes it",
    },
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
    enforcedBy: RJ("verifiedMarks"),
    report: { section: "verifiedMarks" },
  },
  Selection: {
    personal: true,
    holds: ["phone", "cartToken", "checkoutUrl", "orderGid", "items", "riskBehaviour"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: "30 days",
    enforcedBy: RJ("selections"),
    report: { section: "selections" },
  },
  RateCounter: {
    personal: true,
    holds: ["key"],
    customerRedact: "by the counter keys that name the phone",
    shopRedact: "by the shop id in the key",
    retention: "until its window ends (10 minutes by default)",
    enforcedBy: RJ("rateCounters"),
    report: { section: "sendCounters" },
  },
  WebhookDelivery: { personal: false, why: "a delivery id, topic and shop domain" },
  Job: {
    personal: true,
    holds: ["payload"],
    customerRedact: "the jobs of the customer's orders",
    shopRedact: "by shop domain",
    retention: "30 days after it is done; 90 days after it failed for good",
    enforcedBy: { job: "housekeeping.prune" },
    report: { section: "backgroundJobs" },
  },
  OtpChallenge: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "until the code expires (10 minutes by default), deleted within the hour after",
    enforcedBy: RJ("pendingCodes"),
    report: { section: "pendingCodes" },
  },
  BlockedPhone: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "until the end the merchant gave the block (30 days, 90 days or a year), or until they unblock it when they gave none; or a redact",
    enforcedBy: RJ("blocklist"),
    report: { section: "blocklistEntries" },
  },
  AddressCorrection: {
    personal: true,
    holds: ["phone", "before", "after", "digipin", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}; a link still valid stays`,
    enforcedBy: RJ("addressCorrections"),
    report: { section: "addressCorrections" },
  },
  OrderConfirmation: {
    personal: true,
    holds: ["phone", "customerGid", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}; one still awaited stays`,
    enforcedBy: RJ("orderConfirmations"),
    report: { section: "orderConfirmations" },
  },
  MessageDelivery: {
    personal: true,
    holds: ["phone", "fallbackBody", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: RECORDS,
    enforcedBy: RJ("messages"),
    report: { section: "messages" },
  },
  WhatsappReply: {
    personal: true,
    holds: ["sender", "orderGid"],
    customerRedact: "by order",
    shopRedact: "cascade from Shop",
    retention: RECORDS,
    enforcedBy: RJ("messages"),
    report: { section: "whatsappReplies" },
  },
  // The ladder's rungs of a confirmation: the call's SID and the key pressed (the order's, through its confirmation).
  ConfirmationRung: {
    personal: true,
    holds: ["providerId", "detail"],
    customerRedact: "cascade from OrderConfirmation (by phone and by order)",
    shopRedact: "cascade from OrderConfirmation",
    retention: `with its confirmation: ${RECORDS}`,
    enforcedBy: { cascadeFrom: "OrderConfirmation" },
    report: { section: "confirmationSteps" },
  },
  PersonAction: { personal: false, why: "which button the merchant pressed for a confirmation (deleted with it)" },
  // A number that asked not to be texted or called: it names the person, so redaction removes it.
  ContactOptOut: {
    personal: true,
    holds: ["phone"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: "two years from the request (an opt-out outlives every record that could lead to a text or call), until START, or a redact",
    enforcedBy: RJ("optOuts"),
    report: { section: "contactOptOuts" },
  },
  // The keywords texted to the app's SMS number, kept to apply each once (app/sms/opt-out.server.ts).
  InboundKeyword: { personal: false, why: "Twilio's id of an inbound text and its keyword (STOP, START, HELP): no number, no shop; 30 days" },
  // ipHash: a keyed hash of the COD order's browser IP (never the IP), deleted with the record.
  OrderRecord: {
    personal: true,
    holds: ["phone", "orderGid", "ipHash", "riskScore", "riskBand", "riskReasons", "value", "postalCode", "products", "trafficSource", "trafficMedium", "trafficCampaign"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from the order's date`,
    enforcedBy: RJ("orderRecords"),
    report: { section: "orders" },
  },
  OrderOutcome: {
    personal: true,
    holds: ["phone", "postalCode", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from when the outcome was learnt`,
    enforcedBy: RJ("orderOutcomes"),
    report: { section: "orderOutcomes" },
  },
  // The risk score's counts of OrderOutcome per postal code and per shop, kept by triggers on it.
  OutcomeTally: {
    personal: false,
    why: "counts of a shop's learnt COD outcomes per postal code and in all: never a phone or an order. Kept by the database with each OrderOutcome row, so a redacted or expired outcome leaves its counts with it (a count at 0 is deleted); cascade from Shop",
    notPersonal: ["postalCode"],
  },
  DeliveryReminder: {
    personal: true,
    holds: ["phone", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}`,
    enforcedBy: RJ("deliveries"),
    report: { section: "deliveryReminders" },
  },
  // newPhone: the number a shopper gave the courier after a failed delivery.
  DeliveryRecovery: {
    personal: true,
    holds: ["phone", "newPhone", "digipin", "orderGid"],
    customerRedact: "by phone (either) and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}`,
    enforcedBy: RJ("deliveries"),
    report: { section: "deliveryRecoveries" },
  },
  // Pay now after the order (app/orders/prepaid-offer.server.ts): the offer made to the order's phone.
  PrepaidOffer: {
    personal: true,
    holds: ["phone", "orderGid"],
    customerRedact: "by phone and by order",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from the offer's date`,
    enforcedBy: RJ("prepaidOffers"),
    report: { section: "prepaidOffers" },
  },
  Experiment: { personal: false, why: "the merchant's holdout experiment: its share, period and planned size" },
  // The shopper's arm in the merchant's holdout experiment (app/experiment).
  ExperimentAssignment: {
    personal: true,
    holds: ["phone", "arm"],
    customerRedact: "by phone",
    shopRedact: "cascade from Shop",
    retention: `${RECORDS}, counted from when the group was drawn`,
    enforcedBy: RJ("experimentGroups"),
    report: { section: "experimentGroups" },
  },
  DailyStat: { personal: false, why: "counts per day (a dimension is a country, mode or reason, never a person); kept 400 days (the hourly housekeeping)" },
  DayRollup: {
    personal: false,
    why: "a report's counts of one closed day (orders by status, messages by channel, COD orders by postal code, product, mode, band, source): never a phone, an address or an order; kept 400 days (the hourly housekeeping)",
  },
  DataRequestReport: {
    personal: true,
    holds: ["customerId", "customerEmail", "customerPhone", "ordersRequested", "report"],
    customerRedact: "by Shopify customer id and by phone",
    shopRedact: "cascade from Shop",
    retention: "90 days",
    enforcedBy: RJ("dataRequests"),
    report: null,
    notReported: "it is the report itself: each request stores a new one from the records above",
  },
};

/**
 * Whether a scalar field's name looks like a phone, an address, an email, a customer id, an IP, what was
 * bought (`products`, a cart's `items`) or where the shopper came from (`trafficSource`), in any case
 * (`riskPrepaidPhones` as well as `phone`). "ip" only as its own word (`ipHash`, `browserIP`), so
 * `shipping` is not an IP.
 */
export function looksPersonal(field: string): boolean {
  return /phone|email|address|customer|postal|product|traffic/i.test(field) || /^items$/.test(field) || /(^ip|Ip|IP)($|[A-Z_])/.test(field);
}
