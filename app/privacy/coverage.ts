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
      /** Scalar fields whose names look personal but are not (e.g. a setting about addresses). */
      notPersonal?: readonly string[];
    }
  | { personal: false; why: string; notPersonal?: readonly string[] };

export const PRIVACY_COVERAGE: Record<string, ModelCoverage> = {
  Session: {
    personal: true,
    holds: ["userId", "firstName", "lastName", "email"],
    customerRedact: null, // the merchant's staff, never a shopper
    shopRedact: "deleted by shop domain (and at app/uninstalled)",
    notPersonal: ["emailVerified"],
  },
  Shop: {
    personal: false,
    why: "the merchant's store and settings",
    notPersonal: ["addressCorrectionTtlHours", "autoAddressCorrection", "riskIpAttemptLimit", "riskIpOrderLimit"],
  },
  VerifiedCustomer: { personal: true, holds: ["phone"], customerRedact: "by phone", shopRedact: "cascade from Shop" },
  Selection: { personal: true, holds: ["phone", "cartToken", "checkoutUrl", "orderGid"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  RateCounter: { personal: true, holds: ["key"], customerRedact: "by the counter keys that name the phone", shopRedact: "by the shop id in the key" },
  WebhookDelivery: { personal: false, why: "a delivery id, topic and shop domain" },
  Job: { personal: true, holds: ["payload"], customerRedact: "the jobs of the customer's orders", shopRedact: "by shop domain" },
  OtpChallenge: { personal: true, holds: ["phone"], customerRedact: "by phone", shopRedact: "cascade from Shop" },
  BlockedPhone: { personal: true, holds: ["phone"], customerRedact: "by phone", shopRedact: "cascade from Shop" },
  AddressCorrection: { personal: true, holds: ["phone", "before", "after", "orderGid"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  OrderConfirmation: { personal: true, holds: ["phone", "customerGid", "orderGid"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  MessageDelivery: { personal: true, holds: ["phone", "fallbackBody", "orderGid"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  WhatsappReply: { personal: true, holds: ["sender", "orderGid"], customerRedact: "by order", shopRedact: "cascade from Shop" },
  // The ladder's rungs of a confirmation: the call's SID and the key pressed (the order's, through its confirmation).
  ConfirmationRung: { personal: true, holds: ["providerId", "detail"], customerRedact: "cascade from OrderConfirmation (by phone and by order)", shopRedact: "cascade from OrderConfirmation" },
  PersonAction: { personal: false, why: "which button the merchant pressed for a confirmation (deleted with it)" },
  // A number that asked not to be texted or called: it names the person, so redaction removes it.
  ContactOptOut: { personal: true, holds: ["phone"], customerRedact: "by phone", shopRedact: "cascade from Shop" },
  // ipHash: a keyed hash of the COD order's browser IP (never the IP), deleted with the record.
  OrderRecord: { personal: true, holds: ["phone", "orderGid", "ipHash"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  OrderOutcome: { personal: true, holds: ["phone", "postalCode", "orderGid"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  PrepaidOffer: { personal: true, holds: ["phone", "orderGid"], customerRedact: "by phone and by order", shopRedact: "cascade from Shop" },
  Experiment: { personal: false, why: "the merchant's holdout experiment: its share, period and planned size" },
  // The shopper's arm in the merchant's holdout experiment (app/experiment).
  ExperimentAssignment: { personal: true, holds: ["phone"], customerRedact: "by phone", shopRedact: "cascade from Shop" },
  DailyStat: { personal: false, why: "counts per day (a dimension is a country, mode or reason, never a person)" },
  DataRequestReport: {
    personal: true,
    holds: ["customerId", "customerEmail", "customerPhone", "ordersRequested", "report"],
    customerRedact: "by Shopify customer id and by phone",
    shopRedact: "cascade from Shop",
  },
};

/** A scalar field name that looks like a phone, an address, an IP, an email or a customer id. */
export const PERSONAL_FIELD_NAME = /phone|email|address|customer|(^ip|Ip|IP)($|[A-Z_])/;
