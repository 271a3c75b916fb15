/**
 * Where a shopper came from: the landing page's UTM parameters and the outside site that sent them, the
 * session's first touch (docs/traffic-source.md). The storefront's block script keeps it for the session,
 * the modal puts it on the cart as the private attribute `_cod_source`, and orders/create reads it (or,
 * without it, Shopify's own `landing_site` and `referring_site`) into the order's record. Plain TypeScript
 * with no imports: the storefront modal bundles this file too, so both sides read the value one way.
 *
 * The value is what a browser sent: a label for analytics and for the merchant's "prepaid only for this
 * source" rule, never evidence (anyone can open the store without, or with another, UTM tag).
 */

/** The cart attribute (leading underscore: private, not shown to the shopper at checkout). */
export const SOURCE_ATTRIBUTE = "_cod_source";

/** The session storage key the block script writes and the modal reads. */
export const TOUCH_STORAGE_KEY = "codVerifyTouch";

export type TrafficSource = {
  /** utm_source, else the referring site's host, else "direct". Lower case. */
  source: string;
  medium: string | null;
  campaign: string | null;
  /** The referring site's host (no "www."), when it was another site. */
  referrer: string | null;
};

const MAX = 60;

/** A label as stored: lower case, trimmed, letters, digits and . _ - + and space only (no "/": a rule writes source/medium), at most 60 characters; null when nothing is left. */
function clean(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const v = String(raw)
    .toLowerCase()
    .replace(/[^a-z0-9._\-+ ]+/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX)
    .trim();
  return v || null;
}

function host(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const text = String(raw).trim();
  let name: string | null = null;
  try {
    name = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname;
  } catch {
    return null;
  }
  const h = clean(name.replace(/^www\./, ""));
  return h && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(h) ? h : null;
}

function fromParams(params: URLSearchParams, referrer: string | null): TrafficSource | null {
  const utmSource = clean(params.get("utm_source"));
  const ref = host(referrer ?? params.get("ref"));
  const medium = clean(params.get("utm_medium"));
  const campaign = clean(params.get("utm_campaign"));
  return { source: utmSource ?? ref ?? "direct", medium, campaign, referrer: ref };
}

/**
 * The attribute's value as the block script writes it (`utm_source=..&utm_medium=..&utm_campaign=..&ref=<host>`;
 * empty for a direct visit). Null when it is absent or too long to be ours.
 */
export function parseTrafficSource(raw: string | null | undefined): TrafficSource | null {
  if (raw == null || raw.length > 1000) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw);
  } catch {
    return null;
  }
  return fromParams(params, null);
}

/** Shopify's own first touch on the order (`landing_site`: the landing path with its query; `referring_site`), for orders without our attribute. */
export function trafficSourceFromLanding(landingSite: string | null | undefined, referringSite: string | null | undefined, shopHosts: string[] = []): TrafficSource | null {
  if (!landingSite && !referringSite) return null;
  const query = landingSite && landingSite.includes("?") ? landingSite.slice(landingSite.indexOf("?") + 1).split("#")[0] : "";
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    params = new URLSearchParams();
  }
  const ref = host(referringSite);
  const own = ref && shopHosts.some((h) => host(h) === ref);
  return fromParams(params, own ? null : ref);
}

/** The attribute's value for a source (what the modal writes): parameters in a fixed order, empty ones left out. */
export function formatTrafficSource(t: TrafficSource): string {
  const params = new URLSearchParams();
  if (t.source !== "direct" && t.source !== t.referrer) params.set("utm_source", t.source);
  if (t.medium) params.set("utm_medium", t.medium);
  if (t.campaign) params.set("utm_campaign", t.campaign);
  if (t.referrer) params.set("ref", t.referrer);
  return params.toString();
}

/**
 * A merchant's rule entry ("facebook", or "facebook/cpc" for one medium of it) against a source: the same
 * source, and the same medium when the entry names one. Both sides compared as stored (lower case).
 */
export function sourceRuleMatches(entry: string, t: TrafficSource): boolean {
  const [source, medium] = entry.toLowerCase().split("/").map((s) => s.trim());
  if (!source || source !== t.source) return false;
  return !medium || medium === t.medium;
}

/** A merchant's list of sources (one a line or comma-separated), each cleaned; duplicates dropped. */
export function parseSourceList(raw: string): string[] {
  const entries = raw
    .split(/[\n,;]+/)
    .map((e) => e.split("/").map((p) => clean(p) ?? "").filter(Boolean).slice(0, 2).join("/"))
    .filter(Boolean);
  return [...new Set(entries)];
}
