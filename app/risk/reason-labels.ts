/**
 * Each reason code in plain words for the Risk page's top reasons (the order's own reasons carry their
 * sentence with its numbers; these name the kind). Pure: the admin's client bundle reads it too.
 */
export const REASON_LABELS: Record<string, string> = {
  phone_prepaid_only: "Phone on the no-cash-on-delivery list",
  postal_code_denied: "Postal code without cash on delivery",
  source_prepaid_only: "Traffic source on the pay-in-advance list",
  cod_value_cap: "Above the cash-on-delivery limit",
  phone_code_limit: "Too many codes for one phone (your limit)",
  ip_attempt_limit: "Too many attempts from one network (your limit)",
  phone_order_limit: "Too many orders from one phone (your limit)",
  ip_order_limit: "Too many orders from one network (your limit)",
  bad_phone: "Phone number not valid",
  phone_not_mobile: "Not a mobile number",
  otp_unverified: "Phone not confirmed with a code",
  rto_prone_phone: "Earlier orders of this phone failed",
  good_history: "Earlier orders delivered",
  verified_before: "Phone confirmed before",
  new_customer: "First order from this phone",
  weak_address: "Incomplete address",
  address_gibberish: "Address typed at random",
  address_repeated_words: "Address repeats words",
  bad_postal_code: "Postal code missing or malformed",
  pin_unknown: "PIN code not in India Post's directory",
  pin_other_state: "PIN code of another state",
  pin_other_district: "PIN code of another district or city",
  rto_prone_postal_code: "Postal code where cash on delivery often fails",
  rto_prone_postal_area: "Area where cash on delivery often fails",
  high_value: "Order worth more than usual",
  velocity_phone: "Many codes for one phone",
  velocity_ip: "Many attempts from one network",
};

export function reasonLabel(code: string): string {
  return REASON_LABELS[code] ?? code;
}
