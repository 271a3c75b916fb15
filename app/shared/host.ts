/** "Shop.Example.com" → "shop.example.com"; anything that is not a plain host name → null. */
export function originHost(domain: string | null | undefined): string | null {
  const host = (domain ?? "").trim().toLowerCase().replace(/\.$/, "");
  return /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/.test(host) ? host : null;
}
