/**
 * The time zone of a country that has one (ISO 3166 alpha-2 → IANA), for "the shopper's local time" on the
 * needs-a-person list. A country with several zones (US, Brazil, Indonesia, ...) is not here: its shoppers'
 * time cannot be told from the phone number alone.
 */
const ZONES: Record<string, string> = {
  IN: "Asia/Kolkata",
  PK: "Asia/Karachi",
  BD: "Asia/Dhaka",
  LK: "Asia/Colombo",
  NP: "Asia/Kathmandu",
  AE: "Asia/Dubai",
  SA: "Asia/Riyadh",
  QA: "Asia/Qatar",
  KW: "Asia/Kuwait",
  BH: "Asia/Bahrain",
  OM: "Asia/Muscat",
  JO: "Asia/Amman",
  LB: "Asia/Beirut",
  IQ: "Asia/Baghdad",
  EG: "Africa/Cairo",
  MA: "Africa/Casablanca",
  DZ: "Africa/Algiers",
  TN: "Africa/Tunis",
  NG: "Africa/Lagos",
  KE: "Africa/Nairobi",
  GH: "Africa/Accra",
  PH: "Asia/Manila",
  VN: "Asia/Ho_Chi_Minh",
  TH: "Asia/Bangkok",
  MY: "Asia/Kuala_Lumpur",
  SG: "Asia/Singapore",
  TR: "Europe/Istanbul",
  GB: "Europe/London",
  FR: "Europe/Paris",
  ES: "Europe/Madrid",
  IT: "Europe/Rome",
  DE: "Europe/Berlin",
  NL: "Europe/Amsterdam",
  BE: "Europe/Brussels",
};

export function countryTimeZone(country: string | null): string | null {
  return (country && ZONES[country]) ?? null;
}

/** "14:05" at `at` in `timeZone`. */
export function localClock(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
}
