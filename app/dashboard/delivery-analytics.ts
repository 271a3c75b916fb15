/**
 * The delivery analytics' vocabulary, shared by the server (./delivery-analytics.server.ts) and the page
 * (app/routes/app.deliveries_.analytics.tsx), which the browser bundles too: no server imports here.
 */

/** Below this many decided orders (delivered or failed) a failure rate is not shown: 1 failure in 3 is not 33 %. */
export const MIN_DECIDED_FOR_RATE = 20;
/** A postal code enters the worst list with at least this many decided orders and a failure. */
export const MIN_DECIDED_FOR_WORST = 5;
/** How many postal codes the worst list (and its "prepaid only for these" estimate) takes. */
export const WORST_CODES = 12;
/** The most orders one page reads (the newest first); beyond it the page says the period was cut. */
export const MAX_ORDERS = 50_000;
export const PERIODS = [30, 90, 365] as const;

export const DIMENSIONS = ["postalCode", "area", "product", "mode", "riskBand", "source", "week"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIMENSION_LABELS: Record<Dimension, string> = {
  postalCode: "Postal code",
  area: "Area (postal code prefix)",
  product: "Product",
  mode: "Payment mode",
  riskBand: "Risk band",
  source: "Traffic source",
  week: "Week (from Monday)",
};

export type Row = {
  key: string;
  orders: number;
  delivered: number;
  failed: number;
  open: number;
  /** failed / (delivered + failed); null below MIN_DECIDED_FOR_RATE decided orders. */
  rate: number | null;
  /** failed × the cost of a failed parcel; null while the cost is not set. */
  lost: number | null;
};

