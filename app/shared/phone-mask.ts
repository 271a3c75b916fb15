// Imports nothing, so the admin's pages can mask numbers in the browser without bundling phone metadata.
/**
 * +14155550123 -> +1415•••0123: enough for a person to tell numbers apart (logs, the admin's lists), not
 * enough to use one. Runs in the browser too (the admin's pages).
 */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return "";
  const p = String(phone);
  if (p.length <= 6) return "•••";
  return `${p.slice(0, 5)}•••${p.slice(-4)}`;
}
