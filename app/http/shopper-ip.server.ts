import { env } from "~/core/env.server";
import { canonicalIp } from "~/shared/ip";
import { wireRequest, type WireRequest } from "~/http/storefront.server";

/**
 * The shopper's IP on a storefront (app proxy) request: the address Shopify's proxy saw, and nothing
 * the shopper's browser wrote (docs/security.md, "The shopper's IP").
 *
 * Shopify documents that the forwarded request carries `X-Forwarded-For: <the client IP address>`
 * (shopify.dev, "Authenticate app proxies"). It does not document whether a client-supplied
 * X-Forwarded-For is dropped or kept to the left of the address Shopify adds, so the left part is
 * never read: a proxy appends the peer it saw to the right, so the entry Shopify wrote is the right-most
 * one, or the one `TRUSTED_PROXY_HOPS` entries before the end when the app's own load balancers or
 * CDN append theirs after it. Anything further left may have been typed by the shopper.
 * A missing header, too few entries or an unreadable entry is no IP (null): the per-IP counters then
 * do not count the request, rather than count it against an address someone chose.
 */
export function shopperIp(request: Request | WireRequest, hops: number = env.TRUSTED_PROXY_HOPS): string | null {
  const header = wireRequest(request).header("x-forwarded-for");
  if (!header) return null;
  const entries = header.split(",").map((entry) => entry.trim());
  const index = entries.length - 1 - hops;
  return index >= 0 ? canonicalIp(entries[index]) : null;
}
