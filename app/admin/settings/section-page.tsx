import type { EnforcementState } from "~/enforcement/payment-customization.server";
import type { SettingsSectionId } from "~/core/settings/registry";
import type { DepositPattern } from "~/storefront/offer";
import { AddressCorrectionCard } from "./address-correction-card";
import { CheckoutCard } from "./checkout-card";
import { CostsCard } from "./costs-card";
import type { CountryOption } from "./country-picker";
import { EnforcementCard } from "./enforcement-card";
import { LadderCard } from "./ladder-card";
import { LanguageCard } from "./language-card";
import { OrderTagsCard } from "./order-tags-card";
import { OtpCard, OtpLimitsCard } from "./otp-card";
import { PrepaidOfferCard, type PrepaidOfferSummary } from "./prepaid-offer-card";
import { PrivacyCard } from "./privacy-card";
import type { SettingsFormKit } from "./use-settings-form";
import { WhatsappCard } from "./whatsapp-card";

/** What a section's cards show beside its fields, gathered by the route's loader (only what that section needs). */
export type SectionFigures = {
  currency: string | null;
  timezone: string | null;
  countries: CountryOption[];
  depositPattern: DepositPattern;
  enforcement: EnforcementState | null;
  prepaidOffer: PrepaidOfferSummary | null;
};

/** The cards of one section of settings (the experiment's page has its own forms, drawn by its route). */
export function SectionCards({ section, form, figures }: { section: Exclude<SettingsSectionId, "experiment">; form: SettingsFormKit; figures: SectionFigures }) {
  switch (section) {
    case "codes":
      return (
        <>
          <OtpCard form={form} countries={figures.countries} />
          <OtpLimitsCard form={form} />
        </>
      );
    case "checkout":
      return <CheckoutCard form={form} currency={figures.currency} depositPattern={figures.depositPattern} />;
    case "confirmation":
      return (
        <>
          <WhatsappCard form={form} />
          <LadderCard form={form} timezone={figures.timezone} />
        </>
      );
    case "enforcement":
      return figures.enforcement && <EnforcementCard form={form} enforcement={figures.enforcement} />;
    case "pay-now":
      return figures.prepaidOffer && <PrepaidOfferCard form={form} currency={figures.currency} summary={figures.prepaidOffer} />;
    case "orders":
      return (
        <>
          <OrderTagsCard form={form} />
          <AddressCorrectionCard form={form} />
        </>
      );
    case "costs":
      return <CostsCard form={form} currency={figures.currency} />;
    case "store":
      return (
        <>
          <LanguageCard form={form} />
          <PrivacyCard form={form} />
        </>
      );
  }
}
