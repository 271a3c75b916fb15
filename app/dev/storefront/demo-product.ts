/** The product the local storefront sells. Its variant ids are what local mode's Shopify stand-in knows. */
export const DEMO_PRODUCT = {
  title: "Handwoven Cotton Kurta",
  vendor: "Demo Shop",
  price: "₹1,299.00",
  compareAtPrice: "₹1,599.00",
  description: "Breathable handwoven cotton, cut for everyday wear. Cash on delivery available across the country.",
  variants: [
    // Prices in the currency's minor unit, as Liquid gives them (₹1,299.00).
    { id: 44000000000001, title: "S", price: 129900 },
    { id: 44000000000002, title: "M", price: 129900 },
    { id: 44000000000003, title: "L", price: 129900 },
  ],
};
