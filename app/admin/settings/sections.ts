/** The page's sections in the order it shows them (each card's id), for the index at the top. */
export const SETTINGS_SECTIONS = [
  { id: "codes", title: "One-time codes" },
  { id: "language", title: "Language" },
  { id: "checkout", title: "Checkout" },
  { id: "enforcement", title: "Enforcement" },
  { id: "order-tags", title: "Order tags" },
  { id: "address-correction", title: "Address correction" },
  { id: "whatsapp", title: "WhatsApp" },
  { id: "ladder", title: "Confirmation ladder" },
  { id: "code-limits", title: "Code limits" },
  { id: "pay-now", title: "Pay now after the order" },
  { id: "privacy", title: "Privacy" },
  { id: "experiment", title: "Holdout experiment" },
  { id: "costs", title: "Costs" },
] as const;
