/** The period the delivery analytics page reads (`?days=`). The cost of a failed parcel is a setting, set in Settings (app/experiment/settings.ts). */
/** `?days=` as one of the page's periods (90 by default). */
export function periodOf(url: URL, periods: readonly number[]): number {
  const asked = Number(url.searchParams.get("days"));
  return periods.includes(asked) ? asked : 90;
}
