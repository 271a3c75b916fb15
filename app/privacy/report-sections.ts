/**
 * How a data request's report (customer-records.server.ts customerDataReport) reads on the admin's Data requests
 * page: one section per kind of record, with the columns a merchant can forward as they are. Pure: the
 * page renders it in the browser too.
 */
export type ReportSection = { key: string; title: string; columns: { key: string; label: string }[] };

export const REPORT_SECTIONS: ReportSection[] = [
  { key: "verifiedMarks", title: "Verified phone numbers", columns: [{ key: "phone", label: "Phone" }, { key: "verifiedAt", label: "Verified" }] },
  {
    key: "selections",
    title: "Payment choices",
    columns: [
      { key: "phone", label: "Phone" },
      { key: "mode", label: "Way to pay" },
      { key: "verified", label: "Verified" },
      { key: "orderName", label: "Order" },
      { key: "items", label: "Items" },
      { key: "riskBehaviour", label: "Behaviour readings (risk)" },
      { key: "createdAt", label: "Made" },
    ],
  },
  { key: "pendingCodes", title: "Codes waiting to be entered", columns: [{ key: "phone", label: "Phone" }, { key: "sentAt", label: "Sent" }, { key: "expiresAt", label: "Expires" }] },
  {
    key: "messages",
    title: "Texts sent",
    columns: [
      { key: "phone", label: "Phone" },
      { key: "purpose", label: "Purpose" },
      { key: "channel", label: "Channel" },
      { key: "status", label: "Delivery" },
      { key: "createdAt", label: "Sent" },
    ],
  },
  {
    key: "blocklistEntries",
    title: "Blocked numbers",
    columns: [{ key: "phone", label: "Phone" }, { key: "reason", label: "Reason" }, { key: "createdAt", label: "Blocked" }, { key: "expiresAt", label: "Until" }],
  },
  { key: "lists", title: "Other lists the number is on", columns: [{ key: "list", label: "List" }, { key: "phone", label: "Phone" }] },
  {
    key: "whatsappReplies",
    title: "WhatsApp answers",
    columns: [
      { key: "orderGid", label: "Order" },
      { key: "sender", label: "From" },
      { key: "action", label: "Answer" },
      { key: "createdAt", label: "Received" },
    ],
  },
  {
    key: "backgroundJobs",
    title: "Background work about the orders (its details are in the JSON download)",
    columns: [{ key: "kind", label: "Work" }, { key: "createdAt", label: "Queued" }, { key: "doneAt", label: "Done" }],
  },
  { key: "sendCounters", title: "Send limits", columns: [{ key: "key", label: "Counter" }, { key: "count", label: "Count" }, { key: "expiresAt", label: "Ends" }] },
  {
    key: "addressCorrections",
    title: "Address corrections",
    columns: [
      { key: "orderName", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "status", label: "Status" },
      { key: "before", label: "Address before" },
      { key: "after", label: "Address entered" },
      { key: "digipin", label: "DIGIPIN given" },
      { key: "createdAt", label: "Asked" },
    ],
  },
  {
    key: "orderConfirmations",
    title: "Order confirmations",
    columns: [
      { key: "orderName", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "status", label: "Status" },
      { key: "createdAt", label: "Asked" },
      { key: "confirmedAt", label: "Confirmed" },
    ],
  },
  {
    key: "confirmationSteps",
    title: "Confirmation steps (texts, calls, the team)",
    columns: [
      { key: "orderGid", label: "Order" },
      { key: "rung", label: "Step" },
      { key: "state", label: "Outcome" },
      { key: "detail", label: "Detail" },
      { key: "sentAt", label: "Sent" },
    ],
  },
  {
    key: "contactOptOuts",
    title: "Asked not to be contacted",
    columns: [
      { key: "phone", label: "Phone" },
      { key: "channel", label: "Texts and calls, or calls" },
      { key: "source", label: "How" },
      { key: "createdAt", label: "Asked" },
    ],
  },
  {
    key: "experimentGroups",
    title: "The store's checkout experiment (held out: not asked to verify)",
    columns: [
      { key: "phone", label: "Phone" },
      { key: "arm", label: "Group" },
      { key: "assignedAt", label: "Drawn" },
      { key: "experimentStartedAt", label: "Experiment began" },
      { key: "experimentEndsAt", label: "Ends" },
    ],
  },
  {
    key: "orders",
    title: "Orders",
    columns: [
      { key: "orderName", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "mode", label: "Way to pay" },
      { key: "status", label: "Verification" },
      { key: "riskScore", label: "Risk score" },
      { key: "riskBand", label: "Risk band" },
      { key: "riskBehaviour", label: "Behaviour readings (risk)" },
      { key: "value", label: "Order value" },
      { key: "postalCode", label: "Postal code" },
      { key: "trafficSource", label: "Traffic source" },
      { key: "placedAt", label: "Placed" },
    ],
  },
  {
    key: "deliveryReminders",
    title: "Delivery-day reminders",
    columns: [
      { key: "orderGid", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "status", label: "State" },
      { key: "sentAt", label: "Sent" },
    ],
  },
  {
    key: "deliveryRecoveries",
    title: "Failed deliveries and the shopper's answers",
    columns: [
      { key: "orderName", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "cause", label: "Reported as" },
      { key: "choice", label: "Answer" },
      { key: "choiceDate", label: "Day" },
      { key: "newPhone", label: "New phone" },
      { key: "digipin", label: "DIGIPIN given" },
      { key: "createdAt", label: "Reported" },
    ],
  },
  {
    key: "orderOutcomes",
    title: "What became of orders (delivered or failed)",
    columns: [
      { key: "orderName", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "postalCode", label: "Postal code" },
      { key: "outcome", label: "Outcome" },
      { key: "reason", label: "Learnt from" },
      { key: "decidedAt", label: "Learnt" },
    ],
  },
  {
    key: "prepaidOffers",
    title: "Offers to pay now after the order",
    columns: [
      { key: "orderName", label: "Order" },
      { key: "phone", label: "Phone" },
      { key: "status", label: "Status" },
      { key: "amount", label: "Amount" },
      { key: "sentAt", label: "Sent" },
      { key: "paidAt", label: "Paid" },
    ],
  },
];

/** How many records a report holds, all sections together. */
export function recordCount(report: Record<string, unknown>): number {
  return REPORT_SECTIONS.reduce((n, s) => n + (Array.isArray(report[s.key]) ? (report[s.key] as unknown[]).length : 0), 0);
}
