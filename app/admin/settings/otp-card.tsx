import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { CountryPicker, type CountryOption } from "./country-picker";
import type { SettingsFormKit } from "./use-settings-form";

/** The "One-time codes" card. */
export function OtpCard({ form, countries }: { form: SettingsFormKit; countries: CountryOption[] }) {
  const { field, number, select, checkbox } = form;
  return (
    <Layout.AnnotatedSection
      id="codes"
      title="Codes"
      description="Before a cash-on-delivery order, the shopper confirms their phone number with a code sent by text message."
    >
      <Card>
        <FormLayout>
          <Checkbox {...checkbox("otpEnabled")} />
          <TextField {...number("returningSkipDays")} />
          <CountryPicker {...field("allowedCountries")} countries={countries} />
          <Select {...select("smsChannel")} />
          <TextField {...field("smsTemplate")} multiline={3} placeholder="482913 is your store's verification code. It expires in 10 minutes. Do not share it." />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}

/** The code limits: sensible defaults a merchant rarely changes, so they come after the settings that shape the store. */
export function OtpLimitsCard({ form }: { form: SettingsFormKit }) {
  const { number } = form;
  return (
    <Layout.AnnotatedSection
      id="code-limits"
      title="Code limits"
      description="How many codes a number and the store may receive, and for how long a code works. The defaults suit most stores; they protect you from abuse and from paying for texts nobody uses."
    >
      <Card>
        <FormLayout>
          <FormLayout.Group>
            <TextField {...number("otpSendLimit")} />
            <TextField {...number("otpSendWindowSeconds")} />
          </FormLayout.Group>
          <FormLayout.Group>
            <TextField {...number("otpTtlSeconds")} />
            <TextField {...number("otpResendCooldownSeconds")} />
          </FormLayout.Group>
          <FormLayout.Group>
            <TextField {...number("otpMaxAttempts")} />
            <TextField {...number("dailySendCap")} />
          </FormLayout.Group>
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
