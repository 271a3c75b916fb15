import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, List, Text } from "@shopify/polaris";
import { AdminPage, useAppBridgeState, useNotice } from "~/admin/app-bridge";
import type { EnforcementState } from "~/enforcement/payment-customization.server";
import type { SettingsErrors, SettingsField, SettingsFormValues } from "~/core/settings/settings";
import type { DepositPattern } from "~/storefront/offer";
import { AddressCorrectionCard } from "./address-correction-card";
import { CheckoutCard } from "./checkout-card";
import type { CountryOption } from "./country-picker";
import { EnforcementCard } from "./enforcement-card";
import { FIELD_NAMES } from "./field-names";
import { LanguageCard } from "./language-card";
import { OrderTagsCard } from "./order-tags-card";
import { OtpCard, OtpLimitsCard } from "./otp-card";
import { PrivacyCard } from "./privacy-card";
import { PrepaidOfferCard, type PrepaidOfferSummary } from "./prepaid-offer-card";
import { WhatsappCard } from "./whatsapp-card";
import { LadderCard } from "./ladder-card";
import { useSettingsForm } from "./use-settings-form";
import { SETTINGS_SECTIONS } from "./sections";

/** A short index of the sections, so a merchant finds one without scrolling the whole page. */
function SectionIndex() {
  return (
    <Layout.Section>
      <Card>
        <nav aria-label="Settings sections">
          <Text as="h2" variant="headingSm">
            Sections
          </Text>
          <ul className="settings-index">
            {SETTINGS_SECTIONS.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ul>
        </nav>
      </Card>
    </Layout.Section>
  );
}

/** The settings page's form: one card per section (./*-card.tsx), the refused fields listed above them, and Save. */
export function SettingsForm(props: {
  initial: SettingsFormValues;
  errors: SettingsErrors;
  saved: boolean;
  currency: string | null;
  timezone?: string | null;
  enforcement: EnforcementState;
  depositPattern: DepositPattern;
  countries: CountryOption[];
  prepaidOffer: PrepaidOfferSummary;
  /** Cards with forms of their own, below the settings form (a form cannot hold another). */
  children?: ReactNode;
}) {
  const { errors } = props;
  const form = useSettingsForm(props.initial, errors);
  const { values, setValues } = form;
  const navigation = useNavigation();
  const invalid = (Object.keys(errors) as SettingsField[]).filter((f) => errors[f]);
  const appBridge = useAppBridgeState();
  const dirty = (Object.keys(values) as SettingsField[]).some((f) => values[f] !== props.initial[f]);
  const refusedTitle = `${invalid.length === 1 ? "One setting needs" : `${invalid.length} settings need`} a change before saving`;
  // A toast in Shopify's admin, a banner elsewhere. Each answer is told once (its form is remounted per save).
  const saved = useNotice(props.saved ? { message: "Settings saved" } : null, props.initial);
  useNotice(invalid.length ? { message: `Not saved: ${refusedTitle.toLowerCase()}`, error: true } : null, errors);
  // After a refused save the summary of what to change is brought into view and given focus, so the
  // merchant (and a screen reader) meets it, not the bottom of a long page.
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!invalid.length || !summary.current) return;
    summary.current.scrollIntoView({ block: "start" });
    summary.current.focus();
  }, [errors, invalid.length]);
  // After a save the "saved" message gets the focus and is brought into view, not the page's body.
  const savedNote = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!props.saved || !savedNote.current) return;
    savedNote.current.scrollIntoView({ block: "start" });
    savedNote.current.focus();
  }, [props.saved]);

  return (
    <AdminPage title="Settings">
      {/* data-save-bar: App Bridge shows Shopify's contextual save bar while the form differs from what was
          loaded (its Save submits the form, its Discard resets it); without App Bridge the Save button below does. */}
      <Form method="post" data-save-bar data-discard-confirmation onReset={() => setValues(props.initial)}>
        {/* Checkboxes post "true"/"false" so a missing field is refused rather than read as off. */}
        <input type="hidden" name="otpEnabled" value={values.otpEnabled} />
        <input type="hidden" name="tagOrders" value={values.tagOrders} />
        <input type="hidden" name="autoAddressCorrection" value={values.autoAddressCorrection} />
        <input type="hidden" name="enforceAtCheckout" value={values.enforceAtCheckout} />
        <input type="hidden" name="keepCodHiddenWhenPaused" value={values.keepCodHiddenWhenPaused} />
        <input type="hidden" name="usageChargesEnabled" value={values.usageChargesEnabled} />
        <input type="hidden" name="holdUnverifiedCod" value={values.holdUnverifiedCod} />
        <input type="hidden" name="cancelUnconfirmed" value={values.cancelUnconfirmed} />
        <input type="hidden" name="cancelOnWhatsappCancel" value={values.cancelOnWhatsappCancel} />
        <input type="hidden" name="otpChannelChoice" value={values.otpChannelChoice} />
        <input type="hidden" name="linksOnWhatsapp" value={values.linksOnWhatsapp} />
        <input type="hidden" name="paymentModes" value={values.paymentModes} />
        <input type="hidden" name="prepaidOffer" value={values.prepaidOffer} />
        <Layout>
          {/* Only when there is something to say: an empty section draws a blank band and a rule above the first card. */}
          {(saved || invalid.length > 0) && (
            <Layout.Section>
              {saved && (
                <div ref={savedNote} tabIndex={-1} aria-label="Settings saved">
                  {saved}
                </div>
              )}
              {invalid.length > 0 && (
                <div ref={summary} tabIndex={-1} aria-label={refusedTitle}>
                  <Banner tone="critical" title={refusedTitle}>
                    <List>
                      {invalid.map((f) => (
                        <List.Item key={f}>
                          {FIELD_NAMES[f]}: {errors[f]}
                        </List.Item>
                      ))}
                    </List>
                    <p>Nothing was saved.</p>
                  </Banner>
                </div>
              )}
            </Layout.Section>
          )}

          <SectionIndex />

          <OtpCard form={form} countries={props.countries} />

          <LanguageCard form={form} />

          <CheckoutCard form={form} currency={props.currency} depositPattern={props.depositPattern} />

          <EnforcementCard form={form} enforcement={props.enforcement} />

          <OrderTagsCard form={form} />

          <AddressCorrectionCard form={form} />

          <WhatsappCard form={form} />
          <LadderCard form={form} timezone={props.timezone ?? null} />

          <OtpLimitsCard form={form} />

          <PrepaidOfferCard form={form} currency={props.currency} summary={props.prepaidOffer} />

          <PrivacyCard form={form} />

          {appBridge !== "present" && dirty && (
            <div className="admin-save-bar" role="region" aria-label="Unsaved changes">
              <Text as="p" fontWeight="semibold">
                Unsaved changes
              </Text>
              <InlineStack gap="200">
                <Button onClick={() => setValues(props.initial)}>Discard</Button>
                <Button submit variant="primary" loading={navigation.state === "submitting"}>
                  Save
                </Button>
              </InlineStack>
            </div>
          )}
          {appBridge !== "present" && (
            <Layout.Section>
              <BlockStack gap="400">
                <InlineStack align="end">
                  <Button submit variant="primary" loading={navigation.state === "submitting"}>
                    Save
                  </Button>
                </InlineStack>
              </BlockStack>
            </Layout.Section>
          )}
        </Layout>
      </Form>
      {props.children && <Layout>{props.children}</Layout>}
    </AdminPage>
  );
}
