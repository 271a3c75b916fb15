/**
 * An IP address as one canonical string, or null when the text is not one: IPv4 in dotted decimal
 * (four octets, no leading zeros), IPv6 compressed and lower case (the WHATWG URL parser's form), an
 * IPv4-mapped IPv6 address as its IPv4. Shopify sends `browser_ip` as text and often null (draft, POS
 * and API orders); a storefront request's IP comes from X-Forwarded-For. One form, so one shopper's
 * requests and orders count together.
 */
const OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

export function canonicalIp(raw: string | null | undefined): string | null {
  const ip = raw?.trim();
  if (!ip || ip.length > 45) return null;
  if (IPV4.test(ip)) return ip;
  if (!ip.includes(":") || !/^[0-9a-fA-F:.]+$/.test(ip)) return null;
  let host: string;
  try {
    host = new URL(`http://[${ip}]/`).hostname;
  } catch {
    return null;
  }
  const v6 = host.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (!mapped) return v6;
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * The network an address belongs to, as the limits count it: the /24 of an IPv4 address, the /48 of an
 * IPv6 one (what one customer of a provider usually holds). `ip` in `canonicalIp`'s form; null otherwise.
 */
export function ipNetwork(ip: string | null | undefined): string | null {
  if (!ip) return null;
  if (IPV4.test(ip)) return `${ip.slice(0, ip.lastIndexOf("."))}.0/24`;
  if (!ip.includes(":")) return null;
  const [head, tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  if (groups.length !== 8) return null;
  return `${groups.slice(0, 3).map((g) => parseInt(g, 16).toString(16)).join(":")}::/48`;
}
