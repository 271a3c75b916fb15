import { renderMessagePage, type PageShell } from "~/shared/hosted-page";
import { offerPageText, type OfferPage } from "./prepaid-offer-texts";

/** What the pay-now link shows when it does not lead to Shopify's payment page, in the shell every hosted page shares. */
export function renderOfferPage(shell: PageShell, page: OfferPage, orderName: string): string {
  const t = offerPageText(shell.locale, page);
  return renderMessagePage(shell, { title: t.title, body: t.body, orderName, success: page === "paid" });
}
